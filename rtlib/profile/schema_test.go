package profile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// schemaFile is the JSON Schema of the format, beside this package.
const schemaFile = "spgo.profile.v1.schema.json"

// decodeJSON decodes data generically, numbers as json.Number.
func decodeJSON(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func loadSchema(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := decodeJSON(t, data).(map[string]any)
	if !ok {
		t.Fatalf("%s is not a JSON object", schemaFile)
	}
	return s
}

// schemaTypes returns the set of JSON types a schema node's "type"
// allows, nil if it has none.
func schemaTypes(t *testing.T, node map[string]any, path string) []string {
	t.Helper()
	switch ty := node["type"].(type) {
	case nil:
		return nil
	case string:
		return []string{ty}
	case []any:
		var out []string
		for _, x := range ty {
			s, ok := x.(string)
			if !ok {
				t.Fatalf("%s: type %v is not a string", path, x)
			}
			out = append(out, s)
		}
		slices.Sort(out)
		return out
	default:
		t.Fatalf("%s: type %v is neither a string nor a list", path, ty)
		return nil
	}
}

// modelChecker compares the Go data model with the schema by reflection.
type modelChecker struct {
	t      *testing.T
	schema map[string]any
	seen   map[string]bool // $defs reached from Profile
}

func (c *modelChecker) def(name, path string) map[string]any {
	defs, _ := c.schema["$defs"].(map[string]any)
	d, ok := defs[name].(map[string]any)
	if !ok {
		c.t.Fatalf("%s: no $defs/%s in the schema", path, name)
	}
	c.seen[name] = true
	return d
}

// checkStruct checks that node describes struct type rt: the same JSON
// properties, required exactly when not omitempty, each with a type
// compatible with its field's, and a description.
func (c *modelChecker) checkStruct(rt reflect.Type, node map[string]any, path string) {
	t := c.t
	if got := schemaTypes(t, node, path); !slices.Equal(got, []string{"object"}) {
		t.Errorf("%s (%s): type %v, want object", path, rt, got)
	}
	if d, _ := node["description"].(string); d == "" {
		t.Errorf("%s (%s): no description", path, rt)
	}
	props, _ := node["properties"].(map[string]any)
	var required []string
	if r, ok := node["required"].([]any); ok {
		for _, x := range r {
			required = append(required, x.(string))
		}
	}
	fields := map[string]bool{}
	for i := range rt.NumField() {
		f := rt.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Anonymous {
			t.Errorf("%s: embedded field %s: the check does not handle embedding", path, f.Name)
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		omitempty := false
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				omitempty = true
			case "", "omitzero":
			default:
				t.Errorf("%s.%s: json option %q not handled by the check", path, name, o)
			}
		}
		fields[name] = true
		fpath := path + "." + name
		p, ok := props[name].(map[string]any)
		if !ok {
			t.Errorf("%s: field %s.%s (json %q) is not in the schema", fpath, rt.Name(), f.Name, name)
			continue
		}
		if d, _ := p["description"].(string); d == "" {
			t.Errorf("%s: no description", fpath)
		}
		if req := slices.Contains(required, name); req == omitempty {
			t.Errorf("%s: required = %v, but the field is omitempty = %v", fpath, req, omitempty)
		}
		c.checkType(f.Type, omitempty, p, fpath)
	}
	for name := range props {
		if !fields[name] {
			t.Errorf("%s.%s: schema property has no field in %s", path, name, rt)
		}
	}
	for _, name := range required {
		if !fields[name] {
			t.Errorf("%s: required %q has no field in %s", path, name, rt)
		}
	}
	if ap, ok := node["additionalProperties"]; ok {
		t.Errorf("%s: additionalProperties %v: v1 readers ignore unknown fields, so objects must not restrict them", path, ap)
	}
}

// checkType checks that node is a compatible schema for a field of Go
// type gt (omitempty: the encoder leaves out empty values, so null is
// never written).
func (c *modelChecker) checkType(gt reflect.Type, omitempty bool, node map[string]any, path string) {
	t := c.t
	want := func(types ...string) {
		t.Helper()
		slices.Sort(types)
		if got := schemaTypes(t, node, path); !slices.Equal(got, types) {
			t.Errorf("%s (%s, omitempty %v): type %v, want %v", path, gt, omitempty, got, types)
		}
	}
	nullable := func(ty string) []string {
		if omitempty {
			return []string{ty}
		}
		return []string{ty, "null"}
	}
	min, hasMin := node["minimum"]
	if hasMin {
		switch gt.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Float32, reflect.Float64:
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			t.Errorf("%s: minimum on a %s", path, gt)
		}
	}
	switch gt.Kind() {
	case reflect.String:
		want("string")
	case reflect.Bool:
		want("boolean")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		want("integer")
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		// An unsigned field never holds a negative number: the schema
		// says so.
		want("integer")
		if n, ok := min.(json.Number); !ok || strings.HasPrefix(n.String(), "-") {
			t.Errorf("%s (%s): minimum %v, want one ≥ 0", path, gt, min)
		}
	case reflect.Float32, reflect.Float64:
		want("number")
	case reflect.Slice:
		if gt.Elem().Kind() == reflect.Uint8 {
			t.Errorf("%s: []byte (base64) not handled by the check", path)
			return
		}
		want(nullable("array")...)
		items, ok := node["items"].(map[string]any)
		if !ok {
			t.Errorf("%s: array without items", path)
			return
		}
		c.checkType(gt.Elem(), true, items, path+"[]")
	case reflect.Map:
		if gt.Key().Kind() != reflect.String {
			t.Errorf("%s: map key %s not handled by the check", path, gt.Key())
		}
		want(nullable("object")...)
		if _, ok := node["properties"]; ok {
			t.Errorf("%s: a map with fixed properties", path)
		}
		ap, ok := node["additionalProperties"].(map[string]any)
		if !ok {
			t.Errorf("%s: map without an additionalProperties schema", path)
			return
		}
		c.checkType(gt.Elem(), true, ap, path+"{}")
	case reflect.Pointer:
		if !omitempty {
			t.Errorf("%s: pointer field %s without omitempty (null) not handled by the check", path, gt)
		}
		c.checkType(gt.Elem(), true, node, path)
	case reflect.Struct:
		ref, _ := node["$ref"].(string)
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		if !ok || name != gt.Name() {
			t.Errorf("%s: $ref %q, want #/$defs/%s", path, ref, gt.Name())
			return
		}
		if _, ok := node["type"]; ok {
			t.Errorf("%s: type beside $ref", path)
		}
		c.checkStruct(gt, c.def(name, path), "$defs/"+name)
	default:
		t.Errorf("%s: kind %s not handled by the check", path, gt.Kind())
	}
}

// TestSchemaMatchesModel checks, by reflection, that every JSON field of
// every struct of the model is in the schema at its place with a
// compatible type, that required is the fields without omitempty, and
// that the schema has nothing the structs do not: the schema cannot
// drift from profile.go.
func TestSchemaMatchesModel(t *testing.T) {
	s := loadSchema(t)
	if got := s["$schema"]; got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v, want draft 2020-12", got)
	}
	props, _ := s["properties"].(map[string]any)
	schemaProp, _ := props["schema"].(map[string]any)
	if got := schemaProp["const"]; got != Schema {
		t.Errorf("properties.schema.const = %v, want %q", got, Schema)
	}
	desc, _ := s["description"].(string)
	if !strings.Contains(desc, "ignore") || !strings.Contains(desc, "added within v1") {
		t.Errorf("the schema's description does not say that readers ignore unknown fields and fields may be added within v1")
	}
	c := &modelChecker{t: t, schema: s, seen: map[string]bool{}}
	c.checkStruct(reflect.TypeFor[Profile](), s, "#")
	defs, _ := s["$defs"].(map[string]any)
	for name := range defs {
		if !c.seen[name] {
			t.Errorf("$defs/%s is not reached from Profile", name)
		}
	}

	// Every struct type declared in profile.go is described: Profile at
	// the top, the others as $defs (a type added but not used by the
	// model would be missed by the walk above).
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "profile.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, spec := range g.Specs {
			ts := spec.(*ast.TypeSpec)
			if _, ok := ts.Type.(*ast.StructType); !ok || ts.Name.Name == "Profile" {
				continue
			}
			if _, ok := defs[ts.Name.Name]; !ok {
				t.Errorf("struct type %s of profile.go has no $defs/%s in the schema", ts.Name.Name, ts.Name.Name)
			}
		}
	}
}

// TestSchemaKeywords checks that the schema uses only the keywords the
// validator below implements, so that the profiles it accepts really
// satisfy the schema.
func TestSchemaKeywords(t *testing.T) {
	var walk func(node any, path string)
	walk = func(node any, path string) {
		m, ok := node.(map[string]any)
		if !ok {
			if _, isBool := node.(bool); !isBool {
				t.Errorf("%s: a schema must be an object or a boolean, got %T", path, node)
			}
			return
		}
		for k, v := range m {
			switch {
			case k == "properties" || k == "$defs":
				for name, sub := range v.(map[string]any) {
					walk(sub, path+"/"+k+"/"+name)
				}
			case k == "items" || k == "additionalProperties" || k == "propertyNames":
				walk(v, path+"/"+k)
			case k == "format":
				if !knownFormats[v.(string)] {
					t.Errorf("%s: format %q not implemented by the validator", path, v)
				}
			case annotations[k] || assertions[k]:
			default:
				t.Errorf("%s: keyword %q not implemented by the validator", path, k)
			}
		}
	}
	walk(loadSchema(t), "#")
}

var annotations = map[string]bool{"$schema": true, "$id": true, "$defs": true, "title": true, "description": true, "$comment": true}

var assertions = map[string]bool{
	"$ref": true, "type": true, "const": true, "enum": true, "properties": true, "required": true,
	"additionalProperties": true, "propertyNames": true, "items": true, "minimum": true,
	"minLength": true, "pattern": true, "format": true,
}

var knownFormats = map[string]bool{"date-time": true}

// validator checks a JSON value (decoded with UseNumber) against the
// subset of JSON Schema 2020-12 the profile schema uses.
type validator struct {
	root map[string]any
	errs []string
}

func (v *validator) fail(path, format string, args ...any) {
	if path == "" {
		path = "/"
	}
	v.errs = append(v.errs, path+": "+fmt.Sprintf(format, args...))
}

func jsonType(x any) string {
	switch x := x.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if r, ok := new(big.Rat).SetString(x.String()); ok && r.IsInt() {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", x)
}

// jsonEqual is JSON equality: numbers by value.
func jsonEqual(a, b any) bool {
	an, aok := a.(json.Number)
	bn, bok := b.(json.Number)
	if aok && bok {
		ar, ok1 := new(big.Rat).SetString(an.String())
		br, ok2 := new(big.Rat).SetString(bn.String())
		return ok1 && ok2 && ar.Cmp(br) == 0
	}
	switch a := a.(type) {
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !jsonEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k := range a {
			if bv, ok := b[k]; !ok || !jsonEqual(a[k], bv) {
				return false
			}
		}
		return true
	}
	return a == b
}

func (v *validator) validate(schema any, x any, path string) {
	switch s := schema.(type) {
	case bool:
		if !s {
			v.fail(path, "not allowed (schema false)")
		}
		return
	case map[string]any:
		keys := make([]string, 0, len(s))
		for k := range s {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v.keyword(s, k, x, path)
		}
	default:
		v.fail(path, "bad schema %T", schema)
	}
}

func (v *validator) keyword(s map[string]any, k string, x any, path string) {
	arg := s[k]
	obj, isObj := x.(map[string]any)
	switch k {
	case "$ref":
		name, ok := strings.CutPrefix(arg.(string), "#/$defs/")
		def, found := v.root["$defs"].(map[string]any)[name]
		if !ok || !found {
			v.fail(path, "unresolved $ref %v", arg)
			return
		}
		v.validate(def, x, path)
	case "type":
		var types []string
		switch a := arg.(type) {
		case string:
			types = []string{a}
		case []any:
			for _, t := range a {
				types = append(types, t.(string))
			}
		}
		got := jsonType(x)
		if !slices.Contains(types, got) && !(got == "integer" && slices.Contains(types, "number")) {
			v.fail(path, "type %s, want %s", got, strings.Join(types, " or "))
		}
	case "const":
		if !jsonEqual(x, arg) {
			v.fail(path, "%v is not the const %v", x, arg)
		}
	case "enum":
		if !slices.ContainsFunc(arg.([]any), func(e any) bool { return jsonEqual(x, e) }) {
			v.fail(path, "%v is not one of enum %v", x, arg)
		}
	case "properties":
		if isObj {
			for name, sub := range arg.(map[string]any) {
				if val, ok := obj[name]; ok {
					v.validate(sub, val, path+"/"+name)
				}
			}
		}
	case "required":
		if isObj {
			for _, name := range arg.([]any) {
				if _, ok := obj[name.(string)]; !ok {
					v.fail(path, "required property %q missing", name)
				}
			}
		}
	case "additionalProperties":
		if isObj {
			props, _ := s["properties"].(map[string]any)
			for name, val := range obj {
				if _, ok := props[name]; !ok {
					v.validate(arg, val, path+"/"+name)
				}
			}
		}
	case "propertyNames":
		if isObj {
			for name := range obj {
				v.validate(arg, name, path+"/"+name+" (name)")
			}
		}
	case "items":
		if a, ok := x.([]any); ok {
			for i, e := range a {
				v.validate(arg, e, path+"/"+strconv.Itoa(i))
			}
		}
	case "minimum":
		if n, ok := x.(json.Number); ok {
			xr, _ := new(big.Rat).SetString(n.String())
			min, _ := new(big.Rat).SetString(arg.(json.Number).String())
			if xr == nil || min == nil || xr.Cmp(min) < 0 {
				v.fail(path, "%v is below the minimum %v", n, arg)
			}
		}
	case "minLength":
		if str, ok := x.(string); ok {
			n, _ := arg.(json.Number).Int64()
			if int64(utf8.RuneCountInString(str)) < n {
				v.fail(path, "%q is shorter than minLength %d", str, n)
			}
		}
	case "pattern":
		if str, ok := x.(string); ok {
			if !regexp.MustCompile(arg.(string)).MatchString(str) {
				v.fail(path, "%q does not match pattern %s", str, arg)
			}
		}
	case "format":
		if str, ok := x.(string); ok {
			switch arg {
			case "date-time":
				if _, err := time.Parse(time.RFC3339Nano, str); err != nil {
					v.fail(path, "%q is not a date-time: %v", str, err)
				}
			default:
				v.fail(path, "format %v not implemented", arg)
			}
		}
	default:
		if !annotations[k] {
			v.fail(path, "keyword %q not implemented", k)
		}
	}
}

// schemaErrors validates the JSON document data against the schema.
func schemaErrors(t *testing.T, schema map[string]any, data []byte) []string {
	t.Helper()
	v := &validator{root: schema}
	v.validate(schema, decodeJSON(t, data), "")
	return v.errs
}

// testdataProfiles returns the profiles in testdata, by name.
func testdataProfiles(t testing.TB) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no testdata profiles: %v", err)
	}
	out := map[string][]byte{}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(name)] = data
	}
	return out
}

// TestSchemaValidatesProfiles checks real profiles (written by spbuild
// run and spbuild test; see testdata/README) and the samples of the
// tests against the schema.
func TestSchemaValidatesProfiles(t *testing.T) {
	s := loadSchema(t)
	docs := testdataProfiles(t)
	for name, p := range map[string]*Profile{"sample": sample(), "richSample": richSample(), "thresholdSample": thresholdSample(), "pathSample": pathSample()} {
		var buf bytes.Buffer
		if err := Encode(&buf, p); err != nil {
			t.Fatal(err)
		}
		docs[name] = buf.Bytes()
	}
	for name, data := range docs {
		for _, e := range schemaErrors(t, s, data) {
			t.Errorf("%s: %s", name, e)
		}
	}
}

// TestSchemaRejects breaks a real profile in one place at a time and
// checks that the validator, with the schema, finds it; and that fields
// unknown to v1 are allowed.
func TestSchemaRejects(t *testing.T) {
	s := loadSchema(t)
	base := testdataProfiles(t)["tiles.json"]
	// sim adds a valid simulation with two simulated runs to the
	// document before change breaks it.
	sim := func(change func(d map[string]any)) func(d map[string]any) {
		return func(d map[string]any) {
			const simulation = `{"strands": 10, "tasks": 3, "deps": 12, "sync_deps": 0, "frees_moved": 0, "weights": "wall_ns", "seeds": 3, "time_slice_ns": 10000000}`
			const simulated = `[{"policy": "df", "p": 2, "peak_bytes": 64, "peak_at_wall_ns": 5, "makespan_wall_ns": 9, "lines": [{"file": "main.go", "line": 3, "bytes": 64}], "curve": [{"wall_ns": 0, "bytes": 0}, {"wall_ns": 5, "bytes": 64}]},
				{"policy": "ws", "p": 2, "peak_bytes": 64, "peak_at_wall_ns": 5, "makespan_wall_ns": 9, "lines": [{"file": "main.go", "line": 3, "bytes": 64}], "seeds": {"n": 3, "min": 32, "median": 64, "max": 64, "max_seed": 2}}]`
			setPath(d, "roots.0.simulation", decodeJSON(t, []byte(simulation)))
			setPath(d, "roots.0.simulated", decodeJSON(t, []byte(simulated)))
			change(d)
		}
	}
	tests := []struct {
		name   string
		change func(doc map[string]any)
		want   string // in the error; "" for a document that stays valid
	}{
		{"pmax 0", func(d map[string]any) { setPath(d, "pmax", json.Number("0")) }, "/pmax: 0 is below the minimum 1"},
		{"other schema", func(d map[string]any) { setPath(d, "schema", "spgo.profile/v2") }, "/schema: spgo.profile/v2 is not the const"},
		{"no roots", func(d map[string]any) { delPath(d, "roots") }, `required property "roots" missing`},
		{"no census policy", func(d map[string]any) { delPath(d, "census.policy") }, `/census: required property "policy" missing`},
		{"census a string", func(d map[string]any) { setPath(d, "census", "hooks") }, "/census: type string, want object"},
		{"p a string", func(d map[string]any) { setPath(d, "roots.0.mhwm.0.p", "1") }, "/roots/0/mhwm/0/p: type string, want integer"},
		{"p 0", func(d map[string]any) { setPath(d, "roots.0.mhwm.0.p", json.Number("0")) }, "/roots/0/mhwm/0/p: 0 is below the minimum 1"},
		{"fractional bytes", func(d map[string]any) { setPath(d, "roots.0.mhwm.0.bytes", json.Number("1.5")) }, "/roots/0/mhwm/0/bytes: type number, want integer"},
		{"empty name", func(d map[string]any) { setPath(d, "roots.0.name", "") }, "/roots/0/name: \"\" is shorter than minLength 1"},
		{"exact a number", func(d map[string]any) { setPath(d, "roots.0.exact", json.Number("1")) }, "/roots/0/exact: type integer, want boolean"},
		{"negative work", func(d map[string]any) { setPath(d, "roots.0.work", json.Number("-1")) }, "/roots/0/work: -1 is below the minimum 0"},
		{"attributed 0", func(d map[string]any) { setPath(d, "roots.0.attributed.0", json.Number("0")) }, "/roots/0/attributed/0: 0 is below the minimum 1"},
		{"attributed null", func(d map[string]any) { setPath(d, "roots.0.attributed", nil) }, "/roots/0/attributed: type null, want array"},
		{"mhwm_bytes key", func(d map[string]any) { setPath(d, "roots.0.lines.0.mhwm_bytes.x", json.Number("1")) }, "/roots/0/lines/0/mhwm_bytes/x (name): \"x\" does not match pattern"},
		{"mhwm_bytes key 0", func(d map[string]any) { setPath(d, "roots.0.lines.0.mhwm_bytes.0", json.Number("1")) }, "does not match pattern"},
		{"mhwm_bytes value", func(d map[string]any) { setPath(d, "roots.0.lines.0.mhwm_bytes.1", "many") }, "/roots/0/lines/0/mhwm_bytes/1: type string, want integer"},
		{"split part", func(d map[string]any) { setPath(d, "roots.0.lines.0.mhwm_split.1.running", true) }, "/roots/0/lines/0/mhwm_split/1/running: type boolean, want integer"},
		{"no line file", func(d map[string]any) { delPath(d, "roots.0.lines.0.file") }, `/roots/0/lines/0: required property "file" missing`},
		{"heap strand", func(d map[string]any) { setPath(d, "roots.0.heap.samples.0.strand", json.Number("-1")) }, "/roots/0/heap/samples/0/strand: -1 is below the minimum 0"},
		{"heap index", func(d map[string]any) { setPath(d, "roots.0.heap.samples.1.lines.0.index", json.Number("-2")) }, "/roots/0/heap/samples/1/lines/0/index: -2 is below the minimum 0"},
		{"heap samples missing", func(d map[string]any) { delPath(d, "roots.0.heap.samples") }, `/roots/0/heap: required property "samples" missing`},
		{"warning", func(d map[string]any) { setPath(d, "warnings", []any{map[string]any{"pos": "main.go:3"}}) }, `/warnings/0: required property "message" missing`},
		{"wall start", func(d map[string]any) { setPath(d, "wall.start", "yesterday") }, `/wall/start: "yesterday" is not a date-time`},
		{"threshold answer p", func(d map[string]any) {
			setPath(d, "roots.0.threshold", map[string]any{"m": json.Number("16"), "p": json.Number("0"), "value": json.Number("3"), "at_least_half": false})
		}, "/roots/0/threshold/p: 0 is below the minimum 1"},
		{"simulation", sim(func(map[string]any) {}), ""},
		{"simulation strands", sim(func(d map[string]any) { setPath(d, "roots.0.simulation.strands", json.Number("-1")) }), "/roots/0/simulation/strands: -1 is below the minimum 0"},
		{"simulation weights", sim(func(d map[string]any) { delPath(d, "roots.0.simulation.weights") }), `/roots/0/simulation: required property "weights" missing`},
		{"simulated policy", sim(func(d map[string]any) { setPath(d, "roots.0.simulated.1.policy", "cilk") }), "/roots/0/simulated/1/policy: cilk is not one of enum"},
		{"simulated p", sim(func(d map[string]any) { setPath(d, "roots.0.simulated.0.p", json.Number("0")) }), "/roots/0/simulated/0/p: 0 is below the minimum 1"},
		{"simulated peak", sim(func(d map[string]any) { setPath(d, "roots.0.simulated.0.peak_bytes", json.Number("-1")) }), "/roots/0/simulated/0/peak_bytes: -1 is below the minimum 0"},
		{"simulated makespan", sim(func(d map[string]any) { delPath(d, "roots.0.simulated.0.makespan_wall_ns") }), `/roots/0/simulated/0: required property "makespan_wall_ns" missing`},
		{"simulated peak time", sim(func(d map[string]any) { setPath(d, "roots.0.simulated.0.peak_at_wall_ns", json.Number("2.5")) }), "/roots/0/simulated/0/peak_at_wall_ns: type number, want integer"},
		{"simulated line bytes", sim(func(d map[string]any) { setPath(d, "roots.0.simulated.0.lines.0.bytes", "64") }), "/roots/0/simulated/0/lines/0/bytes: type string, want integer"},
		{"simulated seeds n", sim(func(d map[string]any) { setPath(d, "roots.0.simulated.1.seeds.n", json.Number("0")) }), "/roots/0/simulated/1/seeds/n: 0 is below the minimum 1"},
		{"simulated max_seed", sim(func(d map[string]any) { setPath(d, "roots.0.simulated.1.seeds.max_seed", json.Number("-1")) }), "/roots/0/simulated/1/seeds/max_seed: -1 is below the minimum 1"},
		{"simulated curve bytes", sim(func(d map[string]any) { setPath(d, "roots.0.simulated.0.curve.1.bytes", json.Number("-64")) }), "/roots/0/simulated/0/curve/1/bytes: -64 is below the minimum 0"},
		{"simulated null", sim(func(d map[string]any) { setPath(d, "roots.0.simulated", nil) }), "/roots/0/simulated: type null, want array"},
		{"unknown simulated field", sim(func(d map[string]any) { setPath(d, "roots.0.simulated.0.future", true) }), ""},
		// Fields may be added within v1: unknown ones are valid anywhere.
		{"unknown top-level field", func(d map[string]any) { setPath(d, "future", json.Number("1")) }, ""},
		{"unknown root field", func(d map[string]any) { setPath(d, "roots.0.future", []any{}) }, ""},
		{"unknown line field", func(d map[string]any) { setPath(d, "roots.0.lines.0.future", "x") }, ""},
		{"mhwm null", func(d map[string]any) { setPath(d, "roots.0.mhwm", nil) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := decodeJSON(t, base).(map[string]any)
			tt.change(doc)
			data, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			errs := schemaErrors(t, s, data)
			if tt.want == "" {
				if len(errs) != 0 {
					t.Errorf("valid document rejected: %v", errs)
				}
				return
			}
			if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, tt.want) }) {
				t.Errorf("errors %q, want one containing %q", errs, tt.want)
			}
		})
	}
}

// walkPath returns the container holding the last element of the dotted
// path, and that element's key (a map key or a list index).
func walkPath(doc map[string]any, path string) (any, string) {
	parts := strings.Split(path, ".")
	var cur any = doc
	for _, p := range parts[:len(parts)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[p]
		case []any:
			i, _ := strconv.Atoi(p)
			cur = c[i]
		}
	}
	return cur, parts[len(parts)-1]
}

func setPath(doc map[string]any, path string, val any) {
	switch c, k := walkPath(doc, path); c := c.(type) {
	case map[string]any:
		c[k] = val
	case []any:
		i, _ := strconv.Atoi(k)
		c[i] = val
	default:
		panic("setPath " + path)
	}
}

func delPath(doc map[string]any, path string) {
	c, k := walkPath(doc, path)
	delete(c.(map[string]any), k)
}
