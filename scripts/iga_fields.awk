# Reads one `iga64 -Xdsd` decoding; prints `SYNTAX | Word Field hi:lo value; ... | ! complaints`.
/^DESCRIPTOR FIELDS:/ { in_fields = 1; next }
in_fields && /^ *(Ex)?Desc\[/ {
  bits = $1; name = $2; value = $3
  sub(/^.*\[/, "", bits); sub(/\]$/, "", bits)
  if (bits !~ /:/) bits = bits ":" bits
  word = ($1 ~ /^ *Ex/) ? "ExDesc" : "Desc"
  fields = fields sep word " " name " " bits " " value; sep = "; "
  next
}
in_fields && /^$/ { in_fields = 0; after = 1; next }
after && syntax == "" && NF > 0 { syntax = $1; next }
/bits set in undefined field|invalid|error/ { complaints = complaints "! " $0 " " }
END { printf "%s | %s | %s\n", syntax, fields, complaints }
