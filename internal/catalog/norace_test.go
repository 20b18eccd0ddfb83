//go:build !race

package catalog

// raceEnabled reports a -race build (see race_test.go).
const raceEnabled = false
