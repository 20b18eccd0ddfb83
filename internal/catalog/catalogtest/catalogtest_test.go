package catalogtest

import (
	"testing"
	"time"
)

func TestHelpers(t *testing.T) {
	c := Embedded(t)
	if s := Lookup(t, c, "nd96isr_h100_v5"); s.Name != "Standard_ND96isr_H100_v5" {
		t.Errorf("Lookup = %s", s.Name)
	}
	if d := Day(t, "2026-11-22"); !d.Equal(time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Day = %v", d)
	}
}
