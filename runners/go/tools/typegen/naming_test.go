package main

import "testing"

func TestExported(t *testing.T) {
	for in, want := range map[string]string{
		"id": "ID", "isMegane": "IsMegane", "id_str": "IDStr", "MyProperty1": "MyProperty1",
		"user name": "UserName", "2nd": "F2nd", "": "F", "é": "F", "profile_image_url_https": "ProfileImageURLHttps",
	} {
		if got := exported(in); got != want {
			t.Errorf("exported(%q) = %q, want %q", in, got, want)
		}
	}
	taken := map[string]bool{}
	if a, b, c := unique("A", taken), unique("A", taken), unique("Msgsize", taken); a != "A" || b != "A2" || c != "Msgsize2" {
		t.Errorf("unique: %s %s %s", a, b, c)
	}
}

func TestTaggable(t *testing.T) {
	for key, want := range map[string]bool{
		"id": true, "user name": true, "a.b": true, "é": true,
		"": false, "-": false, "a,b": false, `a"b`: false, "a`b": false, `a\b`: false,
	} {
		if got := taggable(key); got != want {
			t.Errorf("taggable(%q) = %v", key, got)
		}
	}
}

func TestAvroName(t *testing.T) {
	for in, want := range map[string]string{"id": "id", "user name": "user_name", "2x": "_2x", "": "_"} {
		if got := avroName(in); got != want {
			t.Errorf("avroName(%q) = %q, want %q", in, got, want)
		}
	}
}
