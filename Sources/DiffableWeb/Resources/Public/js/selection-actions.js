// A list's actions on its selection (Numbers' and Editing's "Delete selected"): their toolbar
// buttons are enabled only while something is selected, as the selection events state.

/** Action names that work on the selection. */
const ON_SELECTION = ["deleteSelected"];

export function bindSelectionActions() {
  const buttons = ON_SELECTION.flatMap((name) => [...document.querySelectorAll(`.toolbar form[data-action="${name}"] button`)]);
  if (buttons.length === 0) return;
  document.addEventListener("diffable-web:selection", (event) => {
    const empty = event.detail.items.length === 0;
    for (const button of buttons) {
      button.disabled = empty;
      button.title = empty ? "Select items first" : "";
    }
  });
}
