// maieutic serve: the only script of the pages (the Content-Security-Policy allows no
// inline script). It polls a running job until its result is there, and refuses an
// upload over the server's limit before sending it.
"use strict";

function pollJob(box) {
  const url = box.dataset.poll;
  const step = box.querySelector(".job-step");
  const seconds = box.querySelector(".job-seconds");
  let delay = 400;
  async function tick() {
    try {
      const response = await fetch(url, { cache: "no-store" });
      const state = await response.json();
      if (!response.ok) {
        step.textContent = state.error || "the job is gone";
        return;
      }
      step.textContent = state.step;
      seconds.textContent = state.seconds + " s";
      if (state.status === "done" || state.status === "failed") {
        window.location.replace(state.view);
        return;
      }
    } catch (err) {
      step.textContent = "waiting for the server…";
    }
    delay = Math.min(delay * 1.5, 2000);
    window.setTimeout(tick, delay);
  }
  window.setTimeout(tick, delay);
}

function guardUploads(form) {
  const limit = Number(form.dataset.maxBytes || 0);
  const note = form.querySelector(".size-error");
  form.addEventListener("submit", (event) => {
    let total = 0;
    for (const input of form.querySelectorAll("input[type=file]")) {
      for (const file of input.files) total += file.size;
    }
    if (limit && total > limit) {
      event.preventDefault();
      note.textContent = "The files are " + (total / 1e6).toFixed(1) + " MB, over this server's " +
        "limit of " + (limit / 1e6) + " MB per request.";
      note.hidden = false;
      return;
    }
    const button = form.querySelector("button[type=submit]");
    if (button) {
      button.disabled = true;
      button.textContent = "Sending…";
    }
  });
}

// The report runs sandboxed in its frame, in an origin of its own: the page cannot
// measure it, so the report posts its height and the frame grows to show all of it.
function fitReportFrame(frame) {
  window.addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow) return;
    const height = Number(event.data && event.data.reportHeight);
    if (Number.isFinite(height) && height > 0) {
      frame.style.height = Math.min(Math.ceil(height), 1e6) + 2 + "px";  // + its borders
    }
  });
  // the report also posts when it loads; asking covers a report that loaded first
  const ask = () => frame.contentWindow && frame.contentWindow.postMessage("height?", "*");
  frame.addEventListener("load", ask);
  ask();
}

document.addEventListener("DOMContentLoaded", () => {
  const job = document.getElementById("job");
  if (job) pollJob(job);
  for (const form of document.querySelectorAll("form[data-max-bytes]")) guardUploads(form);
  for (const frame of document.querySelectorAll("iframe.report")) fitReportFrame(frame);
});

// a page restored from the back/forward cache must not keep a disabled button
window.addEventListener("pageshow", () => {
  for (const button of document.querySelectorAll("button[type=submit]")) button.disabled = false;
});
