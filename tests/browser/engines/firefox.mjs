// The core browser checks (core.mjs) in Firefox ESR (Debian's firefox-esr), over WebDriver BiDi.
import { runCore } from "./core.mjs";
import { launchFirefox } from "./drivers.mjs";

runCore("Firefox", launchFirefox);
