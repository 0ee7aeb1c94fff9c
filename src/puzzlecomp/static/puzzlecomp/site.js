// Behaviour shared by every page, kept out of the markup for the content security policy.

// The language selector changes the language as soon as one is picked (without JavaScript
// its <noscript> button submits the form).
const language = document.getElementById("language");
if (language) language.addEventListener("change", () => language.form.submit());

// Buttons that print the page (pairing sheets).
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}
