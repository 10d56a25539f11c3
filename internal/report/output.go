package report

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/spgo/spgo/rtlib/profile"
)

// WriteFile writes what write produces to path, "-" meaning standard
// output, as profile.WriteBytes does: a regular file is written whole or
// not at all (into a temporary file beside it, or beside the target of a
// symbolic link, then renamed over it); a FIFO, a device or another
// non-regular file is written in place.
func WriteFile(path string, write func(io.Writer) error) error {
	if path == "-" {
		return write(os.Stdout)
	}
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	if err := profile.WriteBytes(path, buf.Bytes()); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
