//go:build race

package catalog

// raceEnabled reports a -race build, which runs code several times slower:
// tests skip their timing bounds under it.
const raceEnabled = true
