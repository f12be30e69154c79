// Runs Chromium suites (node --test with these arguments) from one page server, so
// that they share one origin: a returning visitor's profile (helpers.mjs openApp) is
// then made by one first visit for the whole run, not one per file.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startServer } from "./helpers.mjs";

const server = await startServer();
const profiles = mkdtempSync(path.join(tmpdir(), "chunkwise-visitors-"));
const env = { ...process.env, CHUNKWISE_PAGE_SERVER: server.url, CHUNKWISE_VISITOR_PROFILES: profiles };
const run = spawn(process.execPath, ["--test", ...process.argv.slice(2)], { stdio: "inherit", env });
const status = await new Promise((resolve) => run.on("exit", (code) => resolve(code ?? 1)));
server.stop();
rmSync(profiles, { recursive: true, force: true });
process.exit(status);
