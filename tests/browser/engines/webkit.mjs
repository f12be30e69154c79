// The core browser checks (core.mjs) in WebKitGTK's MiniBrowser (Debian's webkit2gtk-driver), under Xvfb.
import { runCore } from "./core.mjs";
import { launchWebKit } from "./drivers.mjs";

runCore("WebKit", launchWebKit);
