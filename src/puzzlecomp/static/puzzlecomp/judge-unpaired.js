// A phone that is not paired (its cookies cleared, its pairing revoked) may still hold records
// in its outbox (judge-outbox.js) or its spare storage (judge-offline.js): say how many, so
// the judge pairs it again rather than clear it; the server cannot know them (issue 31).

const box = document.getElementById("waiting-here");
const labels = JSON.parse(document.getElementById("unpaired-labels").textContent);
const slug = box.dataset.slug;
const name = `puzzlecomp-judge-${slug}`;

function spareIds() {
  try {
    const kept = JSON.parse(localStorage.getItem(`puzzlecomp-judge-spare-${slug}`) ?? "[]");
    return Array.isArray(kept) ? kept.map((item) => item.client_id) : [];
  } catch {
    return [];
  }
}

/** The client ids in the outbox, without creating one where there is none. */
async function outboxIds() {
  const known = indexedDB.databases ? await indexedDB.databases() : [{ name }];
  if (!known.some((db) => db.name === name)) return [];
  return new Promise((resolve) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore("items", { keyPath: "client_id" });
    };
    request.onerror = () => resolve([]);
    request.onsuccess = () => {
      const db = request.result;
      const read = db.transaction("items").objectStore("items").getAllKeys();
      read.onsuccess = () => { db.close(); resolve(read.result); };
      read.onerror = () => { db.close(); resolve([]); };
    };
  });
}

async function show() {
  let ids;
  try {
    ids = new Set([...(await outboxIds()), ...spareIds()]);
  } catch {
    return;
  }
  if (!ids.size) return;
  box.textContent = labels.waiting_here[Math.min(ids.size, 5)].replace(/%\(count\)s/g,
                                                                       String(ids.size));
  box.hidden = false;
}

show();
