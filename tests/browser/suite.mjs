// Runs Chromium suites (node --test with these arguments) from one page server, so
// that they share one origin: a returning visitor's profile (helpers.mjs openApp) is
// then made by one first visit for the whole run, not one per file. The profiles are
// kept in this process's folder (helpers.mjs VISITORS), removed when it exits.
import { spawn } from "node:child_process";
import { VISITORS, startServer } from "./helpers.mjs";

const server = await startServer();
const env = { ...process.env, CHUNKWISE_PAGE_SERVER: server.url, CHUNKWISE_VISITOR_PROFILES: VISITORS };
const run = spawn(process.execPath, ["--test", ...process.argv.slice(2)], { stdio: "inherit", env });
const status = await new Promise((resolve) => run.on("exit", (code) => resolve(code ?? 1)));
server.stop();
process.exit(status);
