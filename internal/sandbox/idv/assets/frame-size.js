// Tells the portal page framing this one how tall this page is, so the frame can be as tall as
// its content and a phone scrolls the portal's page rather than a box inside it. The target
// origin is the portal's own: no other page that might frame this one hears it.
(function () {
  if (window.parent === window) return;
  // Framed, the page is as tall as its content, not as the frame: the frame follows the page.
  document.documentElement.classList.add("framed");
  var main = document.getElementById("main");
  var origin = (main && main.getAttribute("data-parent-origin")) || window.location.origin;
  var last = 0;
  function tell() {
    var height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: "idv:height", height: height }, origin);
  }
  tell();
  if (window.ResizeObserver) new ResizeObserver(tell).observe(document.body);
  else window.addEventListener("resize", tell);
})();
