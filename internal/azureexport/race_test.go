//go:build race

package azureexport

// raceEnabled reports a -race build, which runs code several times slower:
// timing bounds are not checked under it.
const raceEnabled = true
