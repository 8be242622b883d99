import { useState, type FormEvent } from "react";
import { ConfirmDialog } from "../components/ConfirmDialog";
import type { ProjectRole } from "../api/documents";
import { addMember, changeMemberRole, removeMember, updateProject, type Member } from "./api";
import { PodcastSettings } from "./PodcastSettings";
import { useProject } from "./ProjectContext";
import { TalkSettings } from "./TalkSettings";
import { messageOf } from "../components/useLoad";

export function OverviewSection() {
  const { project } = useProject();
  return (
    <>
      <ProjectForm />
      {project.kind === "podcast" && <PodcastSettings />}
      {project.kind === "talk" && <TalkSettings />}
      <MembersPanel />
    </>
  );
}

function ProjectForm() {
  const { project, reload } = useProject();
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description);
  const [lowBelow, setLowBelow] = useState(project.settings.low_confidence_below?.toString() ?? "");
  const [learns, setLearns] = useState(project.settings.learned_decision ?? true);
  const [license, setLicense] = useState(project.settings.license ?? "");
  const [notice, setNotice] = useState<{ error: boolean; text: string } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      // Settings are replaced whole: keep the others; an empty threshold and learning on are the
      // defaults, left unset.
      const settings = { ...project.settings };
      delete settings.low_confidence_below;
      if (lowBelow.trim()) settings.low_confidence_below = Number(lowBelow);
      delete settings.learned_decision;
      if (!learns) settings.learned_decision = false;
      delete settings.license;
      if (license.trim()) settings.license = license.trim();
      await updateProject(project.id, { name: name.trim(), description, settings });
      setNotice({ error: false, text: "Saved." });
      reload();
    } catch (reason) {
      setNotice({ error: true, text: messageOf(reason) });
    }
  };

  return (
    <form className="lead-form" onSubmit={submit} aria-labelledby="project-form-heading">
      <h2 id="project-form-heading">Project</h2>
      <label htmlFor="project-name">Name</label>
      <input
        id="project-name"
        required
        maxLength={200}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <label htmlFor="project-description">Description</label>
      <textarea
        id="project-description"
        rows={2}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <label htmlFor="project-low-confidence">
        Low confidence below (the editor marks turns whose pre-alignment confidence is lower; 0.4
        when empty)
      </label>
      <input
        id="project-low-confidence"
        type="number"
        min={0}
        max={1}
        step={0.05}
        value={lowBelow}
        onChange={(event) => setLowBelow(event.target.value)}
      />
      <label>
        <input
          type="checkbox"
          checked={learns}
          onChange={(event) => setLearns(event.target.checked)}
        />{" "}
        Learn from gold at each tuning run: per-turn corrections (kept only when they beat the
        aligner on held-out gold) and a confidence that reads as a probability
      </label>
      <label htmlFor="project-license">
        Dataset license (a Hugging Face license id such as cc-by-4.0, stated on the Hugging Face
        export&apos;s card; unknown when empty)
      </label>
      <input
        id="project-license"
        maxLength={64}
        value={license}
        onChange={(event) => setLicense(event.target.value)}
      />
      <button type="submit" className="primary" disabled={!name.trim()}>
        Save project
      </button>
      {notice && (
        <p role={notice.error ? "alert" : "status"} className={notice.error ? "error" : ""}>
          {notice.text}
        </p>
      )}
    </form>
  );
}

function MembersPanel() {
  const { project, members, reload } = useProject();
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);

  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
      reload();
    } catch (reason) {
      setError(messageOf(reason));
    }
  };

  return (
    <section aria-labelledby="members-heading" className="lead-section">
      <h2 id="members-heading">Members</h2>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <table className="lead-table">
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Role</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <MemberRow
              key={member.id}
              member={member}
              onRole={(role) => act(() => changeMemberRole(project.id, member.id, role))}
              onRemove={() => setRemoving(member)}
            />
          ))}
        </tbody>
      </table>
      <InviteForm onInvite={(user, role) => act(() => addMember(project.id, user, role))} />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.username ?? ""} from the project?`}
        confirmLabel="Remove them"
        keepLabel="Keep them"
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && act(() => removeMember(project.id, removing.id))}
      >
        <p>
          <strong>{removing?.username}</strong> loses access to this project and its documents until
          a lead adds them again.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function MemberRow({
  member,
  onRole,
  onRemove,
}: {
  member: Member;
  onRole: (role: ProjectRole) => void;
  onRemove: () => void;
}) {
  return (
    <tr>
      <th scope="row">
        {member.username} <span className="muted">(id {member.user})</span>
      </th>
      <td>
        <select
          aria-label={`Role of ${member.username}`}
          value={member.role}
          onChange={(event) => onRole(event.target.value as ProjectRole)}
        >
          <option value="annotator">annotator</option>
          <option value="curator">curator (adjudicates)</option>
          <option value="lead">lead</option>
        </select>
      </td>
      <td>
        <button type="button" onClick={onRemove} aria-label={`Remove ${member.username}`}>
          Remove
        </button>
      </td>
    </tr>
  );
}

/** By username: what a lead knows of a colleague; the API names an unknown one. */
function InviteForm({ onInvite }: { onInvite: (username: string, role: ProjectRole) => void }) {
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<ProjectRole>("annotator");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onInvite(username.trim(), role);
    setUsername("");
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Add a member">
      <label htmlFor="invite-user">Username</label>
      <input
        id="invite-user"
        autoComplete="off"
        required
        size={16}
        maxLength={150}
        value={username}
        onChange={(event) => setUsername(event.target.value)}
      />
      <label htmlFor="invite-role">as</label>
      <select
        id="invite-role"
        value={role}
        onChange={(event) => setRole(event.target.value as ProjectRole)}
      >
        <option value="annotator">annotator</option>
        <option value="curator">curator (adjudicates)</option>
        <option value="lead">lead</option>
      </select>
      <button type="submit">Add member</button>
    </form>
  );
}
