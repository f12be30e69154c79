// Chromium, Firefox and WebKit, Debian's packages all, behind one small interface (a
// "tab"), so that core.mjs and bench/engines.mjs say what a person does once for all:
//
//   Chromium     /usr/bin/chromium through playwright-core, as the other suites
//                (bench/engines.mjs measures it beside the two others)
//   Firefox ESR  /usr/bin/firefox-esr, driven over WebDriver BiDi by puppeteer-core
//                (a stock Firefox: playwright's Firefox needs its own patched build)
//   WebKitGTK    WebKitWebDriver (webkit2gtk-driver) starting MiniBrowser under an
//                Xvfb display started here, driven by selenium-webdriver
//
// Nothing is downloaded: the browsers are the system's (FIREFOX, WEBKIT_DRIVER and
// MINIBROWSER override the paths). Downloads land in `downloads`, a folder given at
// launch (Firefox: its download prefs; WebKit: the XDG download folder of a HOME made
// for the browser).
//
// A tab has:
//   name, version
//   goto(url), reload()
//   evaluate(fn, arg)     fn run in the page, as playwright's page.evaluate (so the
//                         helpers.mjs readers work on a tab); a promise is awaited
//   click(selector)       a real click (WebDriver input, not a DOM event)
//   type(text)            real key presses to the focused element ("\n" is Enter)
//   press(keys)           "Home", "ArrowDown", "Control+v": to the focused element
//   setFiles(selector, file)   the file input's files, as the file chooser would set them
//   close()

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const FIREFOX = process.env.FIREFOX || "/usr/bin/firefox-esr";
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER || "/usr/bin/WebKitWebDriver";
// MiniBrowser is not on the PATH: it sits in the WebKitGTK library's folder (4.1 on Debian 12).
export const MINIBROWSER = process.env.MINIBROWSER ||
  ["webkit2gtk-4.1", "webkitgtk-6.0", "webkit2gtk-4.0"].flatMap((api) =>
    ["x86_64-linux-gnu", "aarch64-linux-gnu"].map((triplet) => `/usr/lib/${triplet}/${api}/MiniBrowser`)).find((p) => existsSync(p)) ||
  "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
const VIEWPORT = { width: 1400, height: 1000 };

// A function of the page and its one argument, as the source of a script that calls it.
const call = (fn) => `return (${fn}).call(null, arguments[0]);`;

// --- Chromium: playwright-core (helpers.mjs launches it) ---------------------------------

export async function launchChromium({ downloads }) {
  const { launchBrowser } = await import("../helpers.mjs");
  const browser = await launchBrowser();
  const context = await browser.newContext({ acceptDownloads: true, viewport: VIEWPORT });
  const page = await context.newPage();
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  // Playwright keeps a download under a made-up name: save it as the page named it.
  page.on("download", (d) => d.saveAs(path.join(downloads, d.suggestedFilename())).catch(() => {}));
  return {
    name: "Chromium",
    version: `Chromium ${browser.version()}`,
    goto: (url) => page.goto(url),
    reload: () => page.reload(),
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    click: (selector) => page.click(selector),
    type: (text) => page.keyboard.type(text),
    press: (keys) => page.keyboard.press(keys),
    setFiles: (selector, file) => page.setInputFiles(selector, file),
    close: () => browser.close(),
  };
}

// --- Firefox: puppeteer-core over WebDriver BiDi ---------------------------------------

export async function launchFirefox({ downloads }) {
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.launch({
    browser: "firefox",
    protocol: "webDriverBiDi",
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: {
      // Save every download in `downloads`, without asking.
      "browser.download.dir": downloads,
      "browser.download.folderList": 2,
      "browser.download.useDownloadDir": true,
      "browser.download.always_ask_before_handling_new_types": false,
      "browser.download.manager.showWhenStarting": false,
    },
  });
  const page = await browser.newPage();
  // WebDriver BiDi's own command: puppeteer's page.setViewport also sends a screen
  // orientation, which Firefox ESR 140.12 does not know and refuses
  await page.mainFrame().browsingContext.setViewport({ viewport: VIEWPORT });
  const width = await page.evaluate(() => window.innerWidth);
  if (width !== VIEWPORT.width) throw new Error(`Firefox's viewport is ${width} pixels wide, not ${VIEWPORT.width}`);
  const keys = async (combo) => {
    const parts = combo.split("+");
    const key = parts.pop();
    for (const m of parts) await page.keyboard.down(m);
    await page.keyboard.press(key);
    for (const m of parts.reverse()) await page.keyboard.up(m);
  };
  return {
    name: "Firefox",
    version: (await browser.version()).replace(/^firefox\//, "Firefox ESR "),
    goto: (url) => page.goto(url),
    reload: () => page.reload(),
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    click: (selector) => page.click(selector),
    type: (text) => page.keyboard.type(text),
    press: keys,
    setFiles: async (selector, file) => (await page.$(selector)).uploadFile(file),
    close: () => browser.close(),
  };
}

// --- WebKit: WebKitWebDriver + MiniBrowser under Xvfb, selenium-webdriver ---------------

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once("error", reject).listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Xvfb on the first free display (it writes the number it took to -displayfd).
function startXvfb() {
  const proc = spawn("Xvfb", ["-displayfd", "1", "-screen", "0", `${VIEWPORT.width + 100}x${VIEWPORT.height + 200}x24`, "-nolisten", "tcp"],
    { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  proc.stderr.on("data", (d) => { err += d; });
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve({ display: `:${out.trim()}`, stop: () => proc.kill() });
    });
    proc.on("error", (e) => reject(new Error(`Xvfb did not start (apt-get install xvfb): ${e.message}`)));
    proc.on("exit", (code) => reject(new Error(`Xvfb exited with ${code}: ${err}`)));
  });
}

async function waitForDriver(url, proc) {
  let exited = null;
  proc.on("exit", (code) => { exited = code; });
  for (let i = 0; i < 200; i++) {
    if (exited !== null) throw new Error(`WebKitWebDriver exited with ${exited}`);
    try {
      if ((await fetch(url + "/status")).ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("WebKitWebDriver did not answer on " + url);
}

export async function launchWebKit({ downloads }) {
  const { Builder, By, Key } = await import("selenium-webdriver");
  const xvfb = await startXvfb();
  // MiniBrowser saves downloads in the XDG download folder: that of a HOME of its own.
  const home = mkdtempSync(path.join(tmpdir(), "chunkwise-webkit-home-"));
  mkdirSync(path.join(home, ".config"));
  writeFileSync(path.join(home, ".config", "user-dirs.dirs"), `XDG_DOWNLOAD_DIR="${downloads}"\n`);
  const port = await freePort();
  const driverProc = spawn(WEBKIT_DRIVER, [`--port=${port}`, "--host=127.0.0.1"], {
    stdio: "ignore",
    env: { ...process.env, DISPLAY: xvfb.display, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") },
  });
  let driver;
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForDriver(url, driverProc);
    driver = await new Builder().usingServer(url).withCapabilities({
      browserName: "MiniBrowser",
      "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] },
    }).build();
    await driver.manage().window().setRect(VIEWPORT);
  } catch (err) {
    driverProc.kill();
    xvfb.stop();
    throw err;
  }
  const caps = await driver.getCapabilities();
  const KEYS = { Home: Key.HOME, End: Key.END, ArrowDown: Key.ARROW_DOWN, ArrowUp: Key.ARROW_UP, Enter: Key.ENTER, Control: Key.CONTROL };
  const keys = async (combo) => {
    const parts = combo.split("+").map((k) => KEYS[k] ?? k);
    const key = parts.pop();
    let actions = driver.actions();
    for (const m of parts) actions = actions.keyDown(m);
    actions = actions.sendKeys(key);
    for (const m of parts.reverse()) actions = actions.keyUp(m);
    await actions.perform();
  };
  return {
    name: "WebKit",
    version: `WebKitGTK ${caps.get("browserVersion")} (MiniBrowser)`,
    goto: (url) => driver.get(url),
    reload: () => driver.navigate().refresh(),
    evaluate: (fn, arg) => driver.executeScript(call(fn), arg),
    click: async (selector) => (await driver.findElement(By.css(selector))).click(),
    // WebKitWebDriver drops a bare "\n": a line break is the Enter key.
    type: (text) => driver.actions().sendKeys(...text.split("\n").flatMap((line, i) => (i ? [Key.ENTER, line] : [line])).filter(Boolean)).perform(),
    press: keys,
    setFiles: async (selector, file) => (await driver.findElement(By.css(selector))).sendKeys(file),
    close: async () => {
      try {
        await driver.quit();
      } finally {
        driverProc.kill();
        xvfb.stop();
      }
    },
  };
}

export const ENGINES = { chromium: launchChromium, firefox: launchFirefox, webkit: launchWebKit };
