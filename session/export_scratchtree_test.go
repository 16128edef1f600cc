package session

// ScratchLeftOut is scratchLeftOut for the external tests, which open a
// real gitrepo.Repo (gitrepo imports session).
var ScratchLeftOut = scratchLeftOut
