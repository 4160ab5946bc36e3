package configs

import (
	"reflect"
	"strings"
)

// expandString replaces every ${NAME} in s with the value of the variable
// NAME. NAME is a letter or underscore followed by letters, digits and
// underscores. "$$" is kept as written and stops the next character from
// starting a reference, a "$" not followed by a well-formed "{NAME}" is kept
// as written, and so is a ${...} whose inside is not a valid name. It returns
// the names of the variables that are not set; their references stay as
// written.
func expandString(s string, getenv func(string) (string, bool)) (string, []string) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	var missing []string
	for i := 0; i < len(s); {
		if s[i] != '$' {
			b.WriteByte(s[i])
			i++
			continue
		}
		if i+1 < len(s) && s[i+1] == '$' {
			b.WriteString("$$")
			i += 2
			continue
		}
		name, ok := refName(s[i:])
		if !ok {
			b.WriteByte('$')
			i++
			continue
		}
		ref := "${" + name + "}"
		if val, ok := getenv(name); ok {
			b.WriteString(val)
		} else {
			b.WriteString(ref)
			missing = append(missing, name)
		}
		i += len(ref)
	}
	return b.String(), missing
}

// refName returns NAME when s starts with a well-formed "${NAME}".
func refName(s string) (string, bool) {
	if !strings.HasPrefix(s, "${") {
		return "", false
	}
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return "", false
	}
	name := s[2:end]
	if name == "" {
		return "", false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		digit := c >= '0' && c <= '9'
		if !letter && !(digit && i > 0) {
			return "", false
		}
	}
	return name, true
}

// expandAll expands ${NAME} in every string reachable from v (json fields
// only), calling missing for each variable that is not set with the field
// path it appears in, and whole for each string that is one reference to a
// variable that is set.
func expandAll(v reflect.Value, path string, getenv func(string) (string, bool), missing, whole func(path, name string)) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			expandAll(v.Elem(), path, getenv, missing, whole)
		}
	case reflect.Interface:
		// A value of a free-form JSON object (api.extraBody): expand a
		// settable copy of what it holds and put the copy back.
		if !v.IsNil() && v.CanSet() {
			elem := reflect.New(v.Elem().Type()).Elem()
			elem.Set(v.Elem())
			expandAll(elem, path, getenv, missing, whole)
			v.Set(elem)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			expandAll(v.Field(i), joinPath(path, name), getenv, missing, whole)
		}
	case reflect.Slice:
		for i := range v.Len() {
			expandAll(v.Index(i), indexPath(path, i), getenv, missing, whole)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			elem := reflect.New(v.Type().Elem()).Elem()
			elem.Set(iter.Value())
			expandAll(elem, keyPath(path, iter.Key().String()), getenv, missing, whole)
			v.SetMapIndex(iter.Key(), elem)
		}
	case reflect.String:
		out, names := expandString(v.String(), getenv)
		for _, n := range names {
			missing(path, n)
		}
		if name, ok := refName(v.String()); ok && len(name)+3 == v.Len() && len(names) == 0 {
			whole(path, name)
		}
		if v.CanSet() {
			v.SetString(out)
		}
	}
}
