// The streamer's page: a button beside each overlay address copies it (the address stays
// selectable text without JavaScript, so the buttons appear only here).

const labels = JSON.parse(document.getElementById("stream-labels").textContent);
const RESET_MS = 2000;

/** Copy the element's text: the clipboard API, or a selection copied the old way where the
 * page is not a secure origin (a venue's own address over plain HTTP). */
async function copyText(source) {
  const text = source.textContent.trim();
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(source);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  document.execCommand("copy");
}

for (const button of document.querySelectorAll("button[data-copy]")) {
  const source = document.getElementById(button.dataset.copy);
  if (!source) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await copyText(source);
      button.textContent = labels.copied;
      setTimeout(() => { button.textContent = labels.copy; }, RESET_MS);
    } catch (error) {
      console.warn("stream: address not copied", error);
    }
  });
}
