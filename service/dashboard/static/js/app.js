// Small behaviours every page shares: copy buttons, confirmations, busy forms.
// Loaded as a module from the service itself (the pages' CSP forbids inline script).

function copyButtons() {
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", async () => {
      const source = document.querySelector(button.dataset.copy);
      if (!source) return;
      try {
        await navigator.clipboard.writeText(source.textContent.trim());
        button.textContent = "Copied";
      } catch {
        // Clipboard refused (plain http, permissions): select it for Ctrl+C instead.
        const range = document.createRange();
        range.selectNodeContents(source);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        button.textContent = "Press Ctrl+C";
      }
    });
  }
}

function confirmations() {
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
}

function busyForms() {
  for (const form of document.querySelectorAll("form[data-busy-text]")) {
    form.addEventListener("submit", () => {
      const button = form.querySelector("button[type=submit]");
      if (!button) return;
      button.disabled = true;
      button.textContent = form.dataset.busyText;
    });
  }
}

// The top bar's menu on small screens (CSS hides the button on wide ones). The button
// starts hidden, so a page without script keeps its navigation open, wrapped.
function topbarMenu() {
  const topbar = document.querySelector("[data-topbar]");
  const button = topbar?.querySelector("[data-menu-button]");
  if (!button) return;
  const show = (open) => {
    button.setAttribute("aria-expanded", String(open));
    topbar.dataset.menu = open ? "open" : "closed";
  };
  show(false);
  button.hidden = false;
  button.addEventListener("click", () => show(button.getAttribute("aria-expanded") !== "true"));
  topbar.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || topbar.dataset.menu !== "open") return;
    show(false);
    button.focus();
  });
}

copyButtons();
confirmations();
busyForms();
topbarMenu();
