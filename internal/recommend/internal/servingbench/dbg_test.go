package servingbench

import (
	"fmt"
	"testing"
)

func TestDbg(t *testing.T) {
	if !*rows {
		t.Skip()
	}
	_, preds, points, _ := predictions(t)
	for _, p := range append(preds, points...) {
		fmt.Printf("%-34s %d tp=%d rep=%d nodes=%d seqs=%d inflight=%d pub=%.0f pred=%.0f cap=%.0f ttft=%.0f/%.0f tpot=%.1f/%.1f\n", p.ID, p.Kind, p.TensorParallel, p.Replicas, p.Nodes, p.SeqsPerCopy, p.PredInFlight, p.Published, p.Predicted, p.Capacity, p.TTFT, p.PredTTFT, p.TPOT, p.PredTPOT)
	}
}
