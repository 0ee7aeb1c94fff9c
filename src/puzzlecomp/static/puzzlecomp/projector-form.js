// The projector switch offers only the chosen round's groups ("Every group" always); the
// server still refuses a group the round lacks. The groups of each round come as data.

const form = document.querySelector("form.scene-form");
const data = document.getElementById("round-groups");
if (form && data) {
  const groupsOf = JSON.parse(data.textContent);
  const round = form.querySelector("select[name=round]");
  const group = form.querySelector("select[name=group]");
  const all = [...group.options].map((option) => option.cloneNode(true));
  const offer = () => {
    const own = groupsOf[round.value] ?? [];
    const chosen = group.value;
    group.replaceChildren(...all.filter((option) => option.value === "" || own.includes(option.value))
      .map((option) => option.cloneNode(true)));
    group.value = own.includes(chosen) ? chosen : "";
  };
  round.addEventListener("change", offer);
  offer();
}
