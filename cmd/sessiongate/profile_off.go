//go:build !sgprofile

package main

// startProfile does nothing in an ordinary build (profile_on.go).
func startProfile() func() { return func() {} }
