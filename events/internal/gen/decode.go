package main

import (
	"bytes"
	"fmt"
	"strings"
)

// The decoder of the payloads is written in two parts for each type and each nested struct: a
// fast path, which reads the object as Encode writes it (the fields in the catalogue's order, no
// spaces, no escapes) with a scan and reports false on anything else; and the general walk, which
// reads any layout and reports each fault with its field's path. The fast path must accept
// nothing the general walk refuses: the events tests check the two against the reference
// decoder.

// lits collects the literals the fast paths look for, each declared once.
type lits struct {
	names map[string]string
	order []string
}

// lit returns the name of the variable of the literal s.
func (ls *lits) lit(s string) string {
	if n, ok := ls.names[s]; ok {
		return n
	}
	var b strings.Builder
	b.WriteString("lit")
	up := true
	for _, c := range s {
		switch {
		case c == '{':
			b.WriteString("Open")
			up = true
		case c == '[':
			b.WriteString("List")
			up = true
		case c == '}':
			b.WriteString("Close")
			up = true
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			if up && c >= 'a' {
				c -= 'a' - 'A'
			}
			b.WriteRune(c)
			up = false
		default:
			up = true
		}
	}
	n := b.String()
	ls.names[s] = n
	ls.order = append(ls.order, s)
	return n
}

// ptrSlab is the decoder's slab of the pointee of an optional pointer field of a basic kind.
func ptrSlab(f field) string {
	switch strings.TrimPrefix(goType(f), "*") {
	case "Seat":
		return "d.seats"
	case "int":
		return "d.ints"
	case "Chips":
		return "d.chips"
	case "string":
		return "d.strs"
	}
	panic("no slab for " + goType(f))
}

// enumVar is the variable that lists the values of an enumerated field of owner.
func enumVar(owner string, f field) string { return "values" + owner + f.goName }

// addr is the address of x, an addressable expression.
func addr(x string) string {
	switch {
	case strings.HasPrefix(x, "(*") && strings.HasSuffix(x, ")"):
		return x[2 : len(x)-1]
	case strings.HasPrefix(x, "*"):
		return x[1:]
	}
	return "&" + x
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// walkValue writes the statements that read the value of f into x (addressable) and set err.
func walkValue(b *bytes.Buffer, owner string, f field, x string) {
	switch f.kind {
	case kSeat:
		fmt.Fprintf(b, "err = seatInto(l, %s)\n", addr(x))
	case kChips:
		fmt.Fprintf(b, "err = chipsInto(l, %s)\n", addr(x))
	case kCount:
		fmt.Fprintf(b, "var n int64\nn, err = nonNeg(l)\n%s = int(n)\n", x)
	case kPositive, kSeq:
		fmt.Fprintf(b, "var n int64\nn, err = positive(l)\n%s = %s(n)\n", x, strings.TrimPrefix(goType(f), "*"))
	case kCard:
		fmt.Fprintf(b, "err = cardInto(l, %s)\n", addr(x))
	case kCards:
		fmt.Fprintf(b, "%s, err = d.cardList(l)\n", x)
	case kText:
		fmt.Fprintf(b, "var s []byte\ns, err = l.Str()\n%s = string(s)\n", x)
	case kName:
		fmt.Fprintf(b, "var s []byte\nif s, err = l.Str(); err == nil && len(s) == 0 {\nerr = errors.New(%q)\n}\n%s = d.name(s)\n", "empty "+f.noun, x)
	case kTableID:
		fmt.Fprintf(b, "var s []byte\nif s, err = l.Str(); err == nil {\nerr = tableID(s)\n}\n%s = d.id(s)\n", x)
	case kUUID:
		fmt.Fprintf(b, "var s []byte\ns, err = uuid(l)\n%s = d.handID(s)\n", x)
	case kHex64:
		fmt.Fprintf(b, "var s []byte\ns, err = hex64(l, false, \"a lowercase hex SHA-256\")\n%s = d.own(s)\n", x)
	case kSeed:
		fmt.Fprintf(b, "var s []byte\nif s, err = hex64(l, false, \"64 lowercase hex digits\"); err == nil {\nhex.Decode(%s[:], s) // 64 lowercase hex digits: cannot fail\n}\n", x)
	case kEnum:
		if f.enum == "string" {
			fmt.Fprintf(b, "%s, err = enum(l, %s)\n", x, enumVar(owner, f))
		} else {
			fmt.Fprintf(b, "var s string\ns, err = enum(l, %s)\n%s = %s(s)\n", enumVar(owner, f), x, f.enum)
		}
	case kBool:
		fmt.Fprintf(b, "%s, err = l.Bool()\n", x)
	case kObject:
		if f.legacy != "" {
			fmt.Fprintf(b, "if l.Peek() == '\"' { // a v1 log's bare string\nvar s []byte\ns, err = l.Str()\n%s.%s = d.name(s)\nbreak\n}\n", x, f.legacy)
		}
		fmt.Fprintf(b, "err = d.read%s(l, %s)\n", f.nested, addr(x))
	case kList:
		fmt.Fprintf(b, "%s, err = d.read%sList(l)\n", x, f.nested)
	case kRules:
		fmt.Fprintf(b, "err = d.rules(l, %s)\n", addr(x))
	}
}

// walkField writes the case of field i of owner's walk.
func walkField(b *bytes.Buffer, owner string, i int, f field) {
	fmt.Fprintf(b, "case %d: // %s\n", i, f.json)
	if f.opt == optUnknown {
		b.WriteString("v.Unknown = false\n")
	}
	walkValue(b, owner, f, pointee(b, f, "v."+f.goName))
}

// pointee writes the allocation of the value of f when it is an optional pointer, and returns the
// expression of the value: x itself for any other field.
func pointee(b *bytes.Buffer, f field, x string) string {
	switch {
	case f.opt == optPtr && f.kind == kObject:
		fmt.Fprintf(b, "%s = new(%s)\n", x, f.nested)
		return "(*" + x + ")"
	case f.opt == optPtr:
		fmt.Fprintf(b, "%s = take(&%s, d.pool)\n", x, ptrSlab(f))
		return "*" + x
	}
	return x
}

// requiredMask has the bits of the required fields.
func requiredMask(fields []field) uint32 {
	var m uint32
	for i, f := range fields {
		if f.opt == required {
			m |= 1 << i
		}
	}
	return m
}

// fastValue writes the statements that scan the value of f into x, failing the scan sc on
// anything the general walk would not read the same way.
func fastValue(b *bytes.Buffer, ls *lits, owner string, f field, x string) {
	switch f.kind {
	case kSeat:
		fmt.Fprintf(b, "%s = scanSeat(sc)\n", x)
	case kChips:
		fmt.Fprintf(b, "%s = Chips(sc.Uint())\n", x)
	case kCount:
		fmt.Fprintf(b, "%s = int(sc.Uint())\n", x)
	case kPositive, kSeq:
		fmt.Fprintf(b, "if n := sc.Uint(); n >= 1 {\n%s = %s(n)\n} else {\nsc.OK = false\n}\n", x, strings.TrimPrefix(goType(f), "*"))
	case kCard:
		fmt.Fprintf(b, "%s = scanCard(sc)\n", x)
	case kCards:
		fmt.Fprintf(b, "%s = d.fastCards(sc)\n", x)
	case kText:
		fmt.Fprintf(b, "%s = string(sc.Str())\n", x)
	case kName:
		fmt.Fprintf(b, "if s := sc.Str(); len(s) > 0 && sc.OK {\n%s = d.name(s)\n} else {\nsc.OK = false\n}\n", x)
	case kTableID:
		fmt.Fprintf(b, "if s := sc.Str(); sc.OK && textform.IsTableID(s) {\n%s = d.id(s)\n} else {\nsc.OK = false\n}\n", x)
	case kUUID:
		fmt.Fprintf(b, "if s := sc.Fixed(36, textform.IsUUID); sc.OK {\n%s = d.handID(s)\n}\n", x)
	case kHex64:
		fmt.Fprintf(b, "%s = d.own(sc.Fixed(64, textform.IsHex64))\n", x)
	case kSeed:
		fmt.Fprintf(b, "if s := sc.Fixed(64, textform.IsHex64); sc.OK {\nhex.Decode(%s[:], s) // 64 lowercase hex digits: cannot fail\n}\n", x)
	case kEnum:
		if f.enum == "string" {
			fmt.Fprintf(b, "%s = sc.Word(%s)\n", x, enumVar(owner, f))
		} else {
			fmt.Fprintf(b, "%s = %s(sc.Word(%s))\n", x, f.enum, enumVar(owner, f))
		}
	case kBool:
		fmt.Fprintf(b, "%s = sc.Bool()\n", x)
	case kObject:
		fmt.Fprintf(b, "d.fast%s(sc, %s)\n", f.nested, addr(x))
	case kList:
		fmt.Fprintf(b, "%s = d.fast%sList(sc)\n", x, f.nested)
	case kRules:
		fmt.Fprintf(b, "sc.Lit(%s)\n", ls.lit(`{"name":`))
		fmt.Fprintf(b, "if s := sc.Str(); len(s) > 0 && sc.Eat('}') && sc.OK {\n%s.Name = d.name(s)\n} else {\nsc.OK = false // overrides, escapes: the general walk\n}\n", x)
	}
}

// fastFields writes the scan of the fields of v, in the catalogue's order, from the object's '{'
// to its '}'.
func fastFields(b *bytes.Buffer, ls *lits, owner string, fields []field) {
	if len(fields) == 0 {
		b.WriteString("sc.OK = sc.Eat('{') && sc.OK\n")
	}
	for i, f := range fields {
		key := `,"` + f.json + `":`
		if i == 0 {
			key = `{"` + f.json + `":`
		}
		x := "v." + f.goName
		switch f.opt {
		case required:
			fmt.Fprintf(b, "sc.Lit(%s)\n", ls.lit(key))
			fastValue(b, ls, owner, f, x)
			continue
		case optUnknown:
			fmt.Fprintf(b, "v.Unknown = true\nif %s.At(sc.B, sc.I) {\nsc.I += %s.Len()\nv.Unknown = false\n", ls.lit(key), ls.lit(key))
		default:
			fmt.Fprintf(b, "if %s.At(sc.B, sc.I) {\nsc.I += %s.Len()\n", ls.lit(key), ls.lit(key))
		}
		if f.legacy != "" {
			b.WriteString("sc.OK = sc.OK && !jsonlex.HasByte(sc.B, sc.I, '\"') // a v1 log's bare string: the general walk\n")
		}
		fastValue(b, ls, owner, f, pointee(b, f, x))
		b.WriteString("}\n")
	}
	b.WriteString("sc.OK = sc.Eat('}') && sc.OK\n")
}

// genDecode writes the decoder of every payload and nested struct.
func genDecode() ([]byte, error) {
	var b bytes.Buffer
	ls := &lits{names: map[string]string{}}
	b.WriteString(header + "package events\n\nimport (\n\"encoding/hex\"\n\"errors\"\n\"fmt\"\n\"math/bits\"\n\n\"github.com/fechado/fechado/jsonlex\"\n\"github.com/fechado/fechado/textform\"\n)\n\n")

	b.WriteString("// The index of each type in Types (the catalogue's order).\nconst (\n")
	for i, t := range catalogue {
		if i == 0 {
			fmt.Fprintf(&b, "ti%s = iota\n", t.goName)
		} else {
			fmt.Fprintf(&b, "ti%s\n", t.goName)
		}
	}
	b.WriteString("numTypes\n)\n\n")

	b.WriteString("// lookupType returns the catalogue's type named s and its index in Types, or -1 when s names none.\nfunc lookupType(s []byte) (Type, int) {\nswitch string(s) {\n")
	for _, t := range catalogue {
		fmt.Fprintf(&b, "case string(%sType):\nreturn %sType, ti%s\n", t.goName, t.goName, t.goName)
	}
	b.WriteString("}\nreturn \"\", -1\n}\n\n")

	b.WriteString("// payloadSlabs holds a slab of each payload struct and of each nested struct listed in one.\ntype payloadSlabs struct {\n")
	for _, t := range catalogue {
		fmt.Fprintf(&b, "%s slab[%s]\n", lowerFirst(t.goName), t.goName)
	}
	for _, n := range nested {
		fmt.Fprintf(&b, "list%s slab[%s]\n", n.goName, n.goName)
	}
	b.WriteString("}\n\n")

	// The values of the enumerated fields, and the field names of the nested structs.
	b.WriteString("// The values of the enumerated fields, as the messages list them.\nvar (\n")
	enumVars := func(owner string, fields []field) {
		for _, f := range fields {
			if f.kind == kEnum {
				var qs []string
				for _, v := range f.values {
					qs = append(qs, fmt.Sprintf("%q", v))
				}
				fmt.Fprintf(&b, "%s = []string{%s}\n", enumVar(owner, f), strings.Join(qs, ", "))
			}
		}
	}
	for _, t := range catalogue {
		enumVars(t.goName, t.fields)
	}
	for _, n := range nested {
		enumVars(n.goName, n.fields)
	}
	b.WriteString(")\n\n// The fields of each nested struct, in the catalogue's order.\nvar (\n")
	for _, n := range nested {
		var qs []string
		for _, f := range n.fields {
			qs = append(qs, fmt.Sprintf("%q", f.json))
		}
		fmt.Fprintf(&b, "fields%s = jsonlex.NewFieldNames(%s)\n", n.goName, strings.Join(qs, ", "))
	}
	b.WriteString(")\n\n")

	b.WriteString("// data decodes the payload of the type of index ti (in Types) from the object at l's position:\n// by its fast path, or else by its general walk.\nfunc (d *decoder) data(ti int, l *jsonlex.Lexer) (Data, error) {\nswitch ti {\n")
	for _, t := range catalogue {
		fmt.Fprintf(&b, "case ti%s:\nreturn d.read%s(l)\n", t.goName, t.goName)
	}
	b.WriteString("}\nreturn nil, fmt.Errorf(\"unknown event type index %d\", ti)\n}\n\n")

	for _, t := range catalogue {
		slab := "d.payloads." + lowerFirst(t.goName)
		fmt.Fprintf(&b, "// read%s reads a %s payload.\nfunc (d *decoder) read%s(l *jsonlex.Lexer) (Data, error) {\nv := take(&%s, d.pool)\n", t.goName, t.name, t.goName, slab)
		fmt.Fprintf(&b, "if sc := (jsonlex.Scan{B: l.B, I: l.I, OK: true}); d.fast%s(&sc, v) {\nl.I = sc.I\nreturn v, nil\n}\n*v = %s{} // what the fast path wrote\n", t.goName, t.goName)
		for _, f := range t.fields {
			if f.opt == optUnknown {
				b.WriteString("v.Unknown = true\n")
			}
		}
		fmt.Fprintf(&b, "sp := &dataSpecs[ti%s]\nvar have uint32\nempty, err := l.Open()\nfor more := !empty; err == nil && more; more, err = l.Next() {\nvar f int\nif f, err = sp.field(l, &have); err != nil {\nbreak\n}\nswitch f {\n", t.goName)
		for i, f := range t.fields {
			walkField(&b, t.goName, i, f)
		}
		b.WriteString("}\nif err != nil {\nerr = at(sp.names[f], err)\nbreak\n}\n}\nif err == nil {\nerr = sp.check(have)\n}\nreturn v, err\n}\n\n")

		fmt.Fprintf(&b, "// fast%s scans a %s payload as Encode writes it into v.\nfunc (d *decoder) fast%s(sc *jsonlex.Scan, v *%s) bool {\n", t.goName, t.name, t.goName, t.goName)
		fastFields(&b, ls, t.goName, t.fields)
		b.WriteString("return sc.OK\n}\n\n")
	}

	for _, n := range nested {
		fmt.Fprintf(&b, "// read%s reads an object of %s.\nfunc (d *decoder) read%s(l *jsonlex.Lexer, v *%s) error {\nvar have uint32\nempty, err := l.Open()\nfor more := !empty; err == nil && more; more, err = l.Next() {\nvar f int\nvar k []byte\nif f, k, err = l.Field(fields%s, &have); err != nil {\nbreak\n}\nswitch f {\n", n.goName, n.goName, n.goName, n.goName, n.goName)
		for i, f := range n.fields {
			walkField(&b, n.goName, i, f)
		}
		fmt.Fprintf(&b, "default:\nreturn &fieldErr{string(k), errors.New(%q)}\n}\nif err != nil {\nreturn at(fields%s.Names[f], err)\n}\n}\n", "unknown field for "+n.noun, n.goName)
		fmt.Fprintf(&b, "if m := uint32(%#x) &^ have; err == nil && m != 0 {\nerr = &fieldErr{fields%s.Names[bits.TrailingZeros32(m)], errors.New(\"missing\")}\n}\nreturn err\n}\n\n", requiredMask(n.fields), n.goName)

		fmt.Fprintf(&b, "// read%sList reads a list of %s; the list is never nil.\nfunc (d *decoder) read%sList(l *jsonlex.Lexer) ([]%s, error) {\nvar buf [MaxSeat]%s\nxs := buf[:0]\nempty, err := l.OpenArray()\nif err != nil {\nreturn nil, err\n}\nfor i, more := 0, !empty; more; i++ {\nvar x %s\nif err := d.read%s(l, &x); err != nil {\nreturn nil, atIndex(\"\", i, err)\n}\nxs = append(xs, x)\nif more, err = l.NextElem(); err != nil {\nreturn nil, err\n}\n}\nreturn carve(&d.payloads.list%s, slabLen, xs, d.pool), nil\n}\n\n",
			n.goName, n.goName, n.goName, n.goName, n.goName, n.goName, n.goName, n.goName)

		fmt.Fprintf(&b, "// fast%s scans an object of %s as Encode writes it into v.\nfunc (d *decoder) fast%s(sc *jsonlex.Scan, v *%s) {\n", n.goName, n.goName, n.goName, n.goName)
		fastFields(&b, ls, n.goName, n.fields)
		b.WriteString("}\n\n")

		fmt.Fprintf(&b, "// fast%sList scans a list of %s as Encode writes it, of 1 to MaxSeat objects (others are\n// left to the general walk).\nfunc (d *decoder) fast%sList(sc *jsonlex.Scan) []%s {\nvar buf [MaxSeat]%s\nn := 0\nsc.OK = sc.Eat('[') && sc.OK\nfor more := true; more && sc.OK; more = sc.Eat(',') {\nif n == len(buf) {\nsc.OK = false\nbreak\n}\nd.fast%s(sc, &buf[n])\nn++\n}\nif sc.OK = sc.Eat(']') && sc.OK; !sc.OK {\nreturn nil\n}\nreturn carve(&d.payloads.list%s, slabLen, buf[:n], d.pool)\n}\n\n",
			n.goName, n.goName, n.goName, n.goName, n.goName, n.goName, n.goName)
	}

	b.WriteString("// The pieces of the payloads that the fast paths look for.\nvar (\n")
	for _, s := range ls.order {
		fmt.Fprintf(&b, "%s = jsonlex.NewLiteral(%q)\n", ls.names[s], s)
	}
	b.WriteString(")\n")
	return gofmt(&b)
}
