package tools

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// RepairPNG returns a PNG without its ancillary chunks (those a decoder
// may skip: text, gamma, time…) whose checksum is wrong, as browsers show
// such files and Go's decoder refuses them (server-everything's tiny image
// has one). A critical chunk with a bad checksum is kept: the image is
// broken. Data that is not a whole PNG comes back as it is; ok says
// whether anything was dropped.
func RepairPNG(data []byte) (out []byte, ok bool) {
	if !bytes.HasPrefix(data, []byte(pngSignature)) {
		return data, false
	}
	var b bytes.Buffer
	b.WriteString(pngSignature)
	rest := data[len(pngSignature):]
	dropped := false
	for len(rest) > 0 {
		if len(rest) < 12 {
			return data, false
		}
		n := binary.BigEndian.Uint32(rest[:4])
		if n > uint32(len(rest)-12) {
			return data, false
		}
		chunk := rest[:12+n]
		typ, body := chunk[4:8], chunk[8:8+n]
		sum := binary.BigEndian.Uint32(chunk[8+n:])
		ancillary := typ[0]&0x20 != 0
		if ancillary && crc32.Update(crc32.ChecksumIEEE(typ), crc32.IEEETable, body) != sum {
			dropped = true
		} else {
			b.Write(chunk)
		}
		rest = rest[12+n:]
	}
	if !dropped {
		return data, false
	}
	return b.Bytes(), true
}
