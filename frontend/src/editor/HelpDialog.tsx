import { Dialog } from "../components/Dialog";
import { SHORTCUTS, describeBinding } from "./shortcuts";

const IS_MAC = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

export function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose} className="help-dialog">
      <p>
        Click a turn to select it, Shift-click to select a run, then click <em>Assign</em> on a
        segment. Everything saves itself.
      </p>
      <table className="shortcuts">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.command}>
              <td>
                {shortcut.bindings.map((binding, index) => (
                  <span key={index}>
                    {index > 0 && " or "}
                    <kbd>{describeBinding(binding, IS_MAC)}</kbd>
                  </span>
                ))}
              </td>
              <td>{shortcut.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit" data-autofocus>
          Close
        </button>
      </form>
    </Dialog>
  );
}
