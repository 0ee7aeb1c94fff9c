// Behaviour shared by every page, kept out of the markup for the content security policy.

// The language selector changes the language as soon as one is picked (without JavaScript
// its <noscript> button submits the form).
const language = document.getElementById("language");
if (language) language.addEventListener("change", () => language.form.submit());

// Buttons that print the page (pairing sheets).
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}

// The public pages and the organisers' consoles are live only with the network: while the
// browser has none, say so above the page rather than let it pass for live (issue 31).
const offlineBanner = document.getElementById("offline-banner");
if (offlineBanner) {
  const showNetwork = () => {
    offlineBanner.hidden = navigator.onLine;
    document.body.classList.toggle("no-network", !navigator.onLine);
  };
  window.addEventListener("online", showNetwork);
  window.addEventListener("offline", showNetwork);
  showNetwork();
}
