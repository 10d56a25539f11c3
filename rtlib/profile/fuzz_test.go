package profile

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzRead checks that Read never panics; that what it refuses gets a
// one-line *FormatError; and that what it accepts is valid and survives
// Encode and Read unchanged. Seeds: the samples, a small profile with
// simulated runs, the real profiles in testdata (compacted) and
// truncations of them, and foreign files.
func FuzzRead(f *testing.F) {
	for _, p := range []*Profile{sample(), richSample(), thresholdSample(), pathSample()} {
		var buf bytes.Buffer
		Encode(&buf, p)
		f.Add(buf.Bytes())
	}
	f.Add([]byte(`{"schema": "spgo.profile/v1", "pmax": 1, "roots": [{"name": "x", "mhwm": [{"p": 1, "bytes": 3}]}]}`))
	f.Add([]byte(`{"schema":"spgo.profile/v1","pmax":1,"roots":[{"name":"x","simulation":{"weights":"wall_ns","seeds":1},"simulated":[` +
		`{"policy":"df","p":1,"peak_bytes":3,"peak_at_wall_ns":1,"makespan_wall_ns":2,"lines":[{"file":"a.go","line":1,"bytes":3}]},` +
		`{"policy":"ws","p":2,"peak_bytes":3,"peak_at_wall_ns":1,"makespan_wall_ns":2,"lines":[{"file":"a.go","line":1,"bytes":4},{"file":"","line":0,"bytes":-1}],` +
		`"seeds":{"n":1,"min":3,"median":3,"max":3,"max_seed":1},"curve":[{"wall_ns":0,"bytes":0},{"wall_ns":1,"bytes":3}]}]}]}`))
	profiles := testdataProfiles(f)
	for _, name := range slices.Sorted(maps.Keys(profiles)) {
		// Compacted: the same profile in a third of the bytes, which
		// keeps mutation and minimisation fast.
		var compact bytes.Buffer
		if err := json.Compact(&compact, profiles[name]); err != nil {
			f.Fatal(err)
		}
		data := compact.Bytes()
		f.Add(data)
		for _, n := range []int{1, 64, len(data) / 3, len(data) / 2, len(data) - 3} {
			f.Add(data[:n])
		}
	}
	f.Add([]byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff")) // a pprof profile: gzip
	f.Add([]byte("null"))
	f.Add([]byte("[]"))
	f.Add([]byte(`{"schema":"spgo.profile/v2"}`))
	f.Add([]byte(`{"schema":"spgo.profile/v1","pmax":1,"roots":[{"name":"a\nb","work":-1}]}`))
	f.Add([]byte(strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000)))
	f.Add([]byte(`{"schema":"spgo.profile/v1","pmax":1,"args":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Read(bytes.NewReader(data))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("not a FormatError: %T %v", err, err)
			}
			if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q is not one line", msg)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("Read accepted an invalid profile: %v", err)
		}
		var buf bytes.Buffer
		if err := Encode(&buf, p); err != nil {
			t.Fatalf("Encode: %v", err)
		}
		again, err := Read(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("Read of the encoded profile: %v\n%s", err, buf.Bytes())
		}
		if want := normalized(p); !reflect.DeepEqual(again, want) {
			t.Fatalf("Encode and Read changed the profile:\n%#v\n%#v", again, want)
		}
	})
}

// normalized returns a deep copy of p as Encode and Read give it back:
// empty slices and maps of omitempty fields, left out by Encode, nil.
func normalized(p *Profile) *Profile {
	v := reflect.New(reflect.TypeFor[Profile]())
	v.Elem().Set(deepCopy(reflect.ValueOf(*p)))
	return v.Interface().(*Profile)
}

func deepCopy(v reflect.Value) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			_, opts, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			omitempty := slices.Contains(strings.Split(opts, ","), "omitempty")
			if omitempty && (f.Kind() == reflect.Slice || f.Kind() == reflect.Map) && f.Len() == 0 {
				continue // nil
			}
			out.Field(i).Set(deepCopy(f))
		}
	case reflect.Slice:
		if v.IsNil() {
			return out
		}
		out.Set(reflect.MakeSlice(v.Type(), v.Len(), v.Len()))
		for i := range v.Len() {
			out.Index(i).Set(deepCopy(v.Index(i)))
		}
	case reflect.Map:
		if v.IsNil() {
			return out
		}
		out.Set(reflect.MakeMapWithSize(v.Type(), v.Len()))
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), deepCopy(it.Value()))
		}
	case reflect.Pointer:
		if v.IsNil() {
			return out
		}
		out.Set(reflect.New(v.Type().Elem()))
		out.Elem().Set(deepCopy(v.Elem()))
	default:
		out.Set(v)
	}
	return out
}
