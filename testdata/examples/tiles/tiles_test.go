package main

import "testing"

// TestRender renders one tile: MHWM_p = Scratch + Result for every p.
func TestRender(t *testing.T) {
	if got := render(3); len(got) != Result {
		t.Fatalf("render: %d bytes, want %d", len(got), Result)
	}
}

// TestRenderAll renders the image: MHWM_p = Tiles·Result +
// min(p, Tiles)·Scratch, as for the program.
func TestRenderAll(t *testing.T) {
	tiles, err := renderAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(tiles) != Tiles {
		t.Fatalf("%d tiles, want %d", len(tiles), Tiles)
	}
}
