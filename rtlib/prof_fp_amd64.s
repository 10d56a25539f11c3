//go:build amd64

#include "textflag.h"

// func framePointer() unsafe.Pointer
//
// No frame of its own: BP is still its caller's frame pointer.
TEXT ·framePointer(SB),NOSPLIT|NOFRAME,$0-8
	MOVQ BP, AX
	MOVQ AX, ret+0(FP)
	RET
