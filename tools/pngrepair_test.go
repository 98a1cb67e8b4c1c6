package tools

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// withChunk inserts a chunk after IHDR, its checksum broken when bad.
func withChunk(t testing.TB, typ string, body []byte, bad bool) []byte {
	var img bytes.Buffer
	m := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	m.Set(0, 0, color.NRGBA{255, 0, 0, 255})
	if err := png.Encode(&img, m); err != nil {
		t.Fatal(err)
	}
	data := img.Bytes()
	ihdrEnd := 8 + 12 + int(binary.BigEndian.Uint32(data[8:12]))
	var c bytes.Buffer
	binary.Write(&c, binary.BigEndian, uint32(len(body)))
	c.WriteString(typ)
	c.Write(body)
	sum := crc32.Update(crc32.ChecksumIEEE([]byte(typ)), crc32.IEEETable, body)
	if bad {
		sum ^= 0xdeadbeef
	}
	binary.Write(&c, binary.BigEndian, sum)
	return append(append(append([]byte{}, data[:ihdrEnd]...), c.Bytes()...), data[ihdrEnd:]...)
}

func TestRepairPNG(t *testing.T) {
	bad := withChunk(t, "tEXt", []byte("Comment\x00made by a server"), true)
	if _, err := png.Decode(bytes.NewReader(bad)); err == nil {
		t.Fatal("Go's decoder took a bad checksum: the test shows nothing")
	}
	fixed, ok := RepairPNG(bad)
	if !ok {
		t.Fatal("nothing dropped")
	}
	img, err := png.Decode(bytes.NewReader(fixed))
	if err != nil || img.Bounds().Dx() != 2 {
		t.Fatalf("repaired PNG: %v", err)
	}
	good := withChunk(t, "tEXt", []byte("Comment\x00fine"), false)
	if out, ok := RepairPNG(good); ok || !bytes.Equal(out, good) {
		t.Errorf("a sound PNG was changed")
	}
	critical := withChunk(t, "PLTE", []byte{1, 2, 3}, true)
	if _, ok := RepairPNG(critical); ok {
		t.Errorf("a critical chunk with a bad checksum was dropped")
	}
}

// FuzzRepairPNG: any bytes give a PNG no longer than the input, never a
// panic, and a repaired one still starts with the signature.
func FuzzRepairPNG(f *testing.F) {
	f.Add(withChunk(f, "tEXt", []byte("a\x00b"), true))
	f.Add([]byte(pngSignature + "\x00\x00\x00\x10IHDR"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, ok := RepairPNG(data)
		if len(out) > len(data) || ok && !bytes.HasPrefix(out, []byte(pngSignature)) {
			t.Fatalf("RepairPNG grew or broke the data")
		}
	})
}

// A result's image is said at the size a window shows and saves it: a
// PNG's broken optional chunk dropped, as the large view and Save… do.
func TestRenderResultImageSizeAsSaved(t *testing.T) {
	bad := withChunk(t, "tEXt", bytes.Repeat([]byte("x"), 3000), true)
	kept, _ := RepairPNG(bad)
	got := RenderResult(&sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: bad}}})
	if want := "[image: image/png, " + Size(len(kept)) + "]"; got != want {
		t.Errorf("RenderResult(a PNG of %s with a broken chunk) = %q, want %q (the %s saved)", Size(len(bad)), got, want, Size(len(kept)))
	}
}
