#include "textflag.h"

// The constants of the hex checks, each byte repeated 16 times.
DATA hexc<>+0x00(SB)/8, $0x3030303030303030 // '0'
DATA hexc<>+0x08(SB)/8, $0x3030303030303030
DATA hexc<>+0x10(SB)/8, $0x0909090909090909 // 9: the last digit's offset from '0'
DATA hexc<>+0x18(SB)/8, $0x0909090909090909
DATA hexc<>+0x20(SB)/8, $0x6161616161616161 // 'a'
DATA hexc<>+0x28(SB)/8, $0x6161616161616161
DATA hexc<>+0x30(SB)/8, $0x0505050505050505 // 5: 'f''s offset from 'a'
DATA hexc<>+0x38(SB)/8, $0x0505050505050505
DATA hexc<>+0x40(SB)/8, $0x0f0f0f0f0f0f0f0f // a nibble's mask
DATA hexc<>+0x48(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA hexc<>+0x50(SB)/8, $0x2727272727272727 // 'a'-'0'-10: from past '9' to 'a'
DATA hexc<>+0x58(SB)/8, $0x2727272727272727
GLOBL hexc<>(SB), RODATA|NOPTR, $0x60

// HEX16 sets the bytes of acc that are not lowercase hex digits among the 16 at off(AX) to zero:
// a byte is one when byte-'0' is at most 9 or byte-'a' at most 5, unsigned (PMINUB: the
// smaller of the two is the byte itself exactly then).
#define HEX16(off) \
	MOVOU off(AX), X0 \
	MOVO X0, X1 \
	PSUBB X8, X0 \
	MOVO X0, X2 \
	PMINUB X9, X2 \
	PCMPEQB X0, X2 \
	PSUBB X10, X1 \
	MOVO X1, X3 \
	PMINUB X11, X3 \
	PCMPEQB X1, X3 \
	POR X3, X2 \
	PAND X2, X7

// func isHex64(s []byte) bool
// s has 64 bytes.
TEXT ·isHex64(SB), NOSPLIT|NOFRAME, $0-25
	MOVQ s_base+0(FP), AX
	MOVOU hexc<>+0x00(SB), X8
	MOVOU hexc<>+0x10(SB), X9
	MOVOU hexc<>+0x20(SB), X10
	MOVOU hexc<>+0x30(SB), X11
	PCMPEQB X7, X7
	HEX16(0)
	HEX16(16)
	HEX16(32)
	HEX16(48)
	PMOVMSKB X7, BX
	CMPL BX, $0xffff
	SETEQ ret+24(FP)
	RET

// DIGITS16 compares the 32 lowercase hex digits of the 16 bytes at off(BX) with the 32 bytes
// at s1(AX) and s2(AX) (2*off and 2*off+16), and-ing the bytes that match (0xff) into acc: each byte's nibbles are spread to a
// byte each, high first (PUNPCKLBW, PUNPCKHBW), then '0' is added to each, and 'a'-'0'-10 more
// to those above 9.
#define DIGITS16(off, s1, s2) \
	MOVOU off(BX), X0 \
	MOVO X0, X1 \
	PSRLW $4, X1 \
	PAND X12, X1 \
	PAND X12, X0 \
	MOVO X1, X2 \
	PUNPCKLBW X0, X2 \
	PUNPCKHBW X0, X1 \
	MOVO X2, X3 \
	PCMPGTB X9, X3 \
	PAND X13, X3 \
	PADDB X8, X2 \
	PADDB X3, X2 \
	MOVO X1, X3 \
	PCMPGTB X9, X3 \
	PAND X13, X3 \
	PADDB X8, X1 \
	PADDB X3, X1 \
	MOVOU s1(AX), X4 \
	PCMPEQB X4, X2 \
	MOVOU s2(AX), X5 \
	PCMPEQB X5, X1 \
	PAND X2, X7 \
	PAND X1, X7

// func isHexOf(s string, sum *[32]byte) bool
// s has 64 bytes.
TEXT ·isHexOf(SB), NOSPLIT|NOFRAME, $0-25
	MOVQ s_base+0(FP), AX
	MOVQ sum+16(FP), BX
	MOVOU hexc<>+0x00(SB), X8
	MOVOU hexc<>+0x10(SB), X9
	MOVOU hexc<>+0x40(SB), X12
	MOVOU hexc<>+0x50(SB), X13
	PCMPEQB X7, X7
	DIGITS16(0, 0, 16)
	DIGITS16(16, 32, 48)
	PMOVMSKB X7, CX
	CMPL CX, $0xffff
	SETEQ ret+24(FP)
	RET
