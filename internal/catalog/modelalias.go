// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"slices"
	"strings"
)

// variantWords are the words of a model name that mark a tuned variant of
// a base model: instruct and chat tunings (Llama 3.1 70B Instruct, Gemma
// 2 9B it) and the "hf" suffix of converted weights. A variant keeps its
// base's architecture, so it shares the base's memory and throughput.
var variantWords = []string{"instruct", "chat", "it", "hf"}

// ResolveModel finds the model of the table a name stands for. A model's
// own id or display name (Model) always wins; alias is then false. Else
// the name is read as a variant of a model the table has: a Hugging Face id
// loses its organisation ("meta-llama/Llama-3.1-70B-Instruct"), spaces and
// underscores become hyphens, the variant words (instruct, chat, it, hf)
// are dropped, and what is left must be a model's id, or the beginning of
// exactly one id, followed there by a version ("mistral-7b" for
// mistral-7b-v0.3, "whisper-large" for whisper-large-v3; "deepseek" begins
// several ids and names none).
// alias is then true. ok is false when neither finds a model.
func (c *Catalog) ResolveModel(name string) (m *Model, alias, ok bool) {
	if m, ok := c.Model(name); ok {
		return m, false, true
	}
	base := modelBase(name)
	if base == "" {
		return nil, false, false
	}
	if m, ok := c.Model(base); ok {
		return m, true, true
	}
	m = c.onlyVersionOf(base)
	return m, m != nil, m != nil
}

// onlyVersionOf is the model whose id is base followed by a version
// ("mistral-7b" for mistral-7b-v0.3), when it is the one model whose id
// begins with base: a family name that begins several ids ("deepseek" for
// deepseek-v3 and deepseek-r1) names none of them.
func (c *Catalog) onlyVersionOf(base string) *Model {
	var found *Model
	for _, cand := range c.models.list {
		if !strings.HasPrefix(strings.ToLower(cand.ID), base+"-") {
			continue
		}
		if found != nil {
			return nil // more than one model: ambiguous
		}
		found = cand
	}
	if found == nil || !strings.HasPrefix(strings.ToLower(found.ID), base+"-v") {
		return nil
	}
	return found
}

// modelBase is a model name in the table's id form without its
// organisation and variant words: "meta-llama/Llama-3.1-70B-Instruct" is
// "llama-3.1-70b".
func modelBase(name string) string {
	s := strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndex(s, "/"); i >= 0 {
		s = s[i+1:]
	}
	s = strings.NewReplacer(" ", "-", "_", "-").Replace(s)
	words := slices.DeleteFunc(strings.Split(s, "-"), func(w string) bool {
		return w == "" || slices.Contains(variantWords, w)
	})
	return strings.Join(words, "-")
}

// ClosestValue returns the allowed value a mistyped one most likely meant:
// the same value in another case, else the one value within two edits
// (the closest, when there are several at different distances), and
// true; or "" and false when none is close. Enum values are compared
// case-sensitively, as Terraform's conventions have it; this only suggests.
func ClosestValue(v string, allowed []string) (string, bool) {
	for _, a := range allowed {
		if strings.EqualFold(a, v) {
			return a, true
		}
	}
	best, bestD, tie := "", 3, false
	lv := strings.ToLower(v)
	for _, a := range allowed {
		if otherMagnitude(lv, strings.ToLower(a)) {
			continue
		}
		switch d := EditDistance(lv, strings.ToLower(a)); {
		case d < bestD:
			best, bestD, tie = a, d, false
		case d == bestD:
			tie = true
		}
	}
	if best == "" || tie || bestD >= len([]rune(v)) {
		return "", false
	}
	return best, true
}

// otherMagnitude reports whether a and b differ only by digits added or
// dropped ("fp64" and "fp4", "int16" and "int8"): another number of bits, not
// a typo of it, so never a suggestion.
func otherMagnitude(a, b string) bool {
	split := func(s string) (letters, digits string) {
		for _, r := range s {
			if r >= '0' && r <= '9' {
				digits += string(r)
			} else {
				letters += string(r)
			}
		}
		return letters, digits
	}
	la, da := split(a)
	lb, db := split(b)
	return la == lb && len(da) != len(db)
}

// DidYouMean is the sentence that suggests ClosestValue's value, with a
// leading space, or "" when no value is close.
func DidYouMean(v string, allowed []string) string {
	s, ok := ClosestValue(v, allowed)
	switch {
	case !ok:
		return ""
	case strings.EqualFold(s, v):
		return " Did you mean \"" + s + "\"? Values are case-sensitive."
	}
	return " Did you mean \"" + s + "\"?"
}
