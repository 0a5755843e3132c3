// Shown in a frame (a web page embedding the report), tell the page around it this
// report's height, so the frame can grow to show all of it: a sandboxed frame is an
// origin of its own, which the page cannot measure. Opened on its own, nothing runs.
(function () {
  if (window.parent === window) return;
  var told = 0;
  function tell(again) {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== told || again) {
      told = height;
      window.parent.postMessage({ reportHeight: height }, "*");  // a number, nothing else
    }
  }
  window.addEventListener("message", function (event) {
    if (event.source === window.parent) tell(true);  // the page asks once it listens
  });
  if (window.ResizeObserver) {
    new ResizeObserver(function () { tell(false); }).observe(document.documentElement);
  }
  window.addEventListener("load", function () { tell(true); });
  tell(true);
})();
