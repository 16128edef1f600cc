package recordref

import "context"

// ActDir is the folder of the records ref that holds person acts (session
// terminate and delete, protocol accept): one file per act, named by the
// sha256 of its bytes like an acceptance, added in a records commit of its
// own that `--sign` signs. verify reads them to see removals no commit of
// its range names (docs/security.md, "Ending a session is a person's act").
const ActDir = "acts"

var acts = newHashedFiles(ActDir, "person act")

// ActPath is where an act with these bytes lives on the ref.
func ActPath(body []byte) string { return acts.path(body) }

// PutAct writes a person act onto ref in a commit of its own, signed with
// the user's git signing key when sign is set.
func PutAct(ctx context.Context, dir, ref string, body []byte, sign bool) (path, commit string, err error) {
	return acts.put(ctx, dir, ref, body, sign)
}

// ActFile is one act read from the ref.
type ActFile = File

// ReadActs returns the acts at a records commit in two git processes;
// files whose name is not the sha256 of their bytes are left out.
func ReadActs(ctx context.Context, dir, tip string) ([]ActFile, error) {
	return acts.read(ctx, dir, tip)
}

// ActSignatures returns, for every act path, the records commits that
// added it with git's verdict on their signature (one git process).
func ActSignatures(ctx context.Context, dir, tip, allowedSigners string) (map[string][]Signature, error) {
	return acts.signatures(ctx, dir, tip, allowedSigners)
}
