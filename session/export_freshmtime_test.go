package session

// FreshenChanged is freshenChanged for the external tests, which open a
// real gitrepo.Repo (gitrepo imports session).
var FreshenChanged = freshenChanged
