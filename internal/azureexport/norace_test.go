//go:build !race

package azureexport

// raceEnabled reports a -race build (see race_test.go).
const raceEnabled = false
