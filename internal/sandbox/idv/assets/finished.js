// Tells the portal page framing this one that the applicant is done, so it
// can move on without waiting for a click. The target origin is the
// portal's own: no other page that might frame this one hears it.
(function () {
  var main = document.getElementById("main");
  var title = document.getElementById("page-title");
  if (title) title.focus();
  if (!main || window.parent === window) return;
  var sessionId = main.getAttribute("data-session-id");
  var origin = main.getAttribute("data-parent-origin") || window.location.origin;
  if (!sessionId) return;
  window.parent.postMessage({ type: "idv:finished", sessionId: sessionId }, origin);
})();
