#include "textflag.h"

// func drainFast(r *drainRegs) int32
//
// drainFastGo (machine.go) in assembly. Registers: DI r, R8 cnt, R9 out,
// R10 succ, R11 at, R12 flags, R13 stack, BX sp; AX the node popped (kept
// in r.c across its successor loops), CX its output and then d, DX its
// flags and then the end of a successor run, SI the successor pointer,
// R14 and R15 a counter's old and new value. A trigger's toggle also sets
// its word's bit in r.touched.
TEXT ·drainFast(SB), NOSPLIT, $0-12
	MOVQ r+0(FP), DI
	MOVQ 0(DI), R8
	MOVQ 8(DI), R9
	MOVQ 16(DI), R10
	MOVQ 24(DI), R11
	MOVQ 32(DI), R12
	MOVQ 40(DI), R13
	MOVQ 64(DI), BX

pop:
	TESTQ BX, BX
	JLE   empty
	DECQ  BX
	MOVLQSX (R13)(BX*4), AX      // c
	MOVL  (R8)(AX*4), CX
	SHRL  $31, CX                // v: c's output
	MOVBLZX (R9)(AX*1), DX       // the output its successors saw
	CMPL  CX, DX
	JEQ   pop
	MOVB  CX, (R9)(AX*1)
	INCQ  88(DI)                 // pops++
	MOVBLZX (R12)(AX*1), DX      // f
	CMPL  DX, $16                // flagTrigLeaf
	JNE   gate
	MOVQ  48(DI), SI             // trig1
	MOVLQSX (SI)(AX*4), DX       // b
	MOVQ  56(DI), SI             // tbits
	MOVQ  DX, CX
	SHRQ  $6, CX
	MOVQ  (SI)(CX*8), R14
	BTCQ  DX, R14                // bit b&63
	MOVQ  R14, (SI)(CX*8)
	MOVQ  104(DI), SI            // touched
	MOVQ  CX, DX
	SHRQ  $6, DX
	MOVQ  (SI)(DX*8), R14
	BTSQ  CX, R14                // bit (b>>6)&63 of word b>>12
	MOVQ  R14, (SI)(DX*8)
	JMP   pop

gate:
	TESTL $1, DX                 // successors in cyclic components: emit
	JNE   stop
	CMPQ  BX, 72(DI)             // sp > lim: no room
	JGT   stop
	LEAL  -1(CX)(CX*1), CX       // d = 2v-1 (as uint32)
	MOVQ  AX, 96(DI)             // c
	SHLQ  $4, AX                 // c*16: its succAt entry
	MOVLQSX 0(R11)(AX*1), SI     // at[0]
	TESTL DX, DX
	JNE   full
	MOVLQSX 4(R11)(AX*1), DX     // at[1]
	MOVQ  DX, R14
	SUBQ  SI, R14
	ADDQ  R14, 80(DI)            // work += at[1]-at[0]
	LEAQ  (R10)(SI*4), SI
	LEAQ  (R10)(DX*4), DX
	CMPQ  SI, DX
	JEQ   pop

succ:
	MOVL  (SI), AX               // t
	MOVL  (R8)(AX*4), R14        // old
	LEAL  (R14)(CX*1), R15       // nv = old + d
	MOVL  R15, (R8)(AX*4)
	MOVL  AX, (R13)(BX*4)        // pushed ...
	XORL  R14, R15
	SHRL  $31, R15
	ADDQ  R15, BX                // ... when its output flipped
	ADDQ  $4, SI
	CMPQ  SI, DX
	JNE   succ
	JMP   pop

full:
	// f is 2, 4, 8, 10 or 12: the positive run, then (8) the negated
	// run and the leaves, then (4) the trigger or (2) the triggers.
	MOVLQSX 16(R11)(AX*1), DX    // at[4]
	MOVQ  DX, R14
	SUBQ  SI, R14
	ADDQ  R14, 80(DI)            // work += at[4]-at[0]
	MOVLQSX 4(R11)(AX*1), DX     // at[1]
	LEAQ  (R10)(SI*4), SI
	LEAQ  (R10)(DX*4), DX
	CMPQ  SI, DX
	JEQ   negated

succ2:
	MOVL  (SI), AX
	MOVL  (R8)(AX*4), R14
	LEAL  (R14)(CX*1), R15
	MOVL  R15, (R8)(AX*4)
	MOVL  AX, (R13)(BX*4)
	XORL  R14, R15
	SHRL  $31, R15
	ADDQ  R15, BX
	ADDQ  $4, SI
	CMPQ  SI, DX
	JNE   succ2

negated:
	MOVQ  96(DI), AX
	MOVBLZX (R12)(AX*1), DX
	TESTL $8, DX
	JEQ   trigger
	SHLQ  $4, AX
	MOVLQSX 8(R11)(AX*1), DX     // at[2]
	LEAQ  (R10)(DX*4), DX
	NEGL  CX                     // -d
	CMPQ  SI, DX
	JEQ   leafpos

succ3:
	MOVL  (SI), AX
	MOVL  (R8)(AX*4), R14
	LEAL  (R14)(CX*1), R15       // nv = old - d
	MOVL  R15, (R8)(AX*4)
	MOVL  AX, (R13)(BX*4)
	XORL  R14, R15
	SHRL  $31, R15
	ADDQ  R15, BX
	ADDQ  $4, SI
	CMPQ  SI, DX
	JNE   succ3

leafpos:
	MOVQ  96(DI), AX
	SHLQ  $4, AX
	MOVLQSX 12(R11)(AX*1), DX    // at[3]
	LEAQ  (R10)(DX*4), DX
	CMPQ  SI, DX
	JEQ   leafneg

leaf1:
	MOVL  (SI), AX
	SUBL  CX, (R8)(AX*4)         // += d
	ADDQ  $4, SI
	CMPQ  SI, DX
	JNE   leaf1

leafneg:
	MOVQ  96(DI), AX
	SHLQ  $4, AX
	MOVLQSX 16(R11)(AX*1), DX    // at[4]
	LEAQ  (R10)(DX*4), DX
	CMPQ  SI, DX
	JEQ   trigger

leaf2:
	MOVL  (SI), AX
	ADDL  CX, (R8)(AX*4)         // -= d
	ADDQ  $4, SI
	CMPQ  SI, DX
	JNE   leaf2

trigger:
	MOVQ  96(DI), AX
	MOVBLZX (R12)(AX*1), DX
	TESTL $2, DX                 // triggers: -2-c, for fire
	JNE   fire
	TESTL $4, DX
	JEQ   pop
	MOVQ  48(DI), SI             // trig1
	MOVLQSX (SI)(AX*4), DX       // b
	MOVQ  56(DI), SI             // tbits
	MOVQ  DX, CX
	SHRQ  $6, CX
	MOVQ  (SI)(CX*8), R14
	BTCQ  DX, R14
	MOVQ  R14, (SI)(CX*8)
	MOVQ  104(DI), SI            // touched
	MOVQ  CX, DX
	SHRQ  $6, DX
	MOVQ  (SI)(DX*8), R14
	BTSQ  CX, R14
	MOVQ  R14, (SI)(DX*8)
	JMP   pop

fire:
	MOVQ  BX, 64(DI)
	NOTL  AX
	DECL  AX                     // -2-c
	MOVL  AX, ret+8(FP)
	RET

stop:
	MOVQ  BX, 64(DI)
	MOVL  AX, ret+8(FP)
	RET

empty:
	MOVQ  $0, 64(DI)
	MOVL  $-1, ret+8(FP)
	RET
