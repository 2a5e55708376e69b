package governance

import (
	"bufio"
	"errors"
	"io"
)

// maxStreamLine bounds one line of an event stream.
const maxStreamLine = 32 << 20

var errLongLine = errors.New("governance: event stream line longer than 32 MiB")

// lineReader splits an event stream into lines ending in CRLF, LF or CR,
// without waiting for the byte after a CR.
type lineReader struct {
	r      *bufio.Reader
	line   []byte
	skipLF bool // the last line ended in CR: a LF next belongs to it
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its end; the slice is valid until the
// next call. A stream that ends inside a line ends with io.EOF, that line
// dropped (the standard drops an unfinished event).
func (l *lineReader) next() ([]byte, error) {
	l.line = l.line[:0]
	for {
		b, err := l.r.ReadByte()
		if err != nil {
			return nil, err
		}
		if l.skipLF {
			l.skipLF = false
			if b == '\n' {
				continue
			}
		}
		switch b {
		case '\n':
			return l.line, nil
		case '\r':
			l.skipLF = true
			return l.line, nil
		}
		if len(l.line) >= maxStreamLine {
			return nil, errLongLine
		}
		l.line = append(l.line, b)
	}
}
