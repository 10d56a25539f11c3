// buffers: statements that may grow a bytes.Buffer or strings.Builder
// are followed by rt.BufSeen or rt.BuilderSeen: a method that writes, a
// pointer given to a call, a field's buffer, a pointer variable. Left
// alone: reads (String, Len), a buffer the statement assigns, an if's
// init, a function literal's body (its own statements are followed).
package main

import (
	"bytes"
	"fmt"
	"strings"
)

type doc struct {
	body bytes.Buffer
	head *strings.Builder
}

func render(n int) string {
	var b bytes.Buffer
	var sb strings.Builder
	for i := range n {
		b.WriteString("x")
		fmt.Fprintf(&sb, "%d,", i)
	}
	d := &doc{head: &sb}
	d.body.WriteByte('!')
	d.head.WriteRune('é')
	n2, _ := b.Write([]byte("abc"))
	if _, err := b.WriteString("y"); err != nil {
		return ""
	}
	f := func() { b.WriteString("z") }
	f()
	pb := &b
	pb.Grow(64)
	_ = b.Len() + n2
	return b.String() + sb.String() + d.body.String()
}

func main() {
	fmt.Println(render(3))
}
