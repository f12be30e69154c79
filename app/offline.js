// Offline use after the first visit: the service worker (sw.js) stores the
// page's own files. It is registered once the engine is ready, so its downloads
// (served from the HTTP cache by then) never compete with the first boot; each
// later visit asks it to refresh its copy of the current build.

export async function keepOffline() {
  if (!("serviceWorker" in navigator)) return;
  try {
    const root = new URL("../", import.meta.url);
    const registration = await navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname });
    if (registration.active) registration.active.postMessage("refresh");
  } catch (err) {
    console.warn(`Offline use is not available: ${err.message}`);
  }
}
