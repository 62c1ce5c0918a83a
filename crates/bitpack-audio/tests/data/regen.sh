#!/bin/sh
# Regenerates the golden vectors in this folder from the reference C code printed in the seed
# text (../shared/seeds/002_*.txt, "Lossless Audio Compression"). The C code is extracted into a
# temporary folder outside the repository, compiled with gcc -O2 and run; only its inputs (the
# samples) and its outputs (the packed bit streams) are kept here. lore ships none of that code.
#
# Usage: sh crates/bitpack-audio/tests/data/regen.sh   (from the workspace root)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
seed=$(ls "$here"/../../../../../shared/seeds/002_*.txt)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The post's code runs from its first #include to just before its main().
awk '/^Lossless Audio Compression$/ {s=1} s && /^#include <stdio.h>/ {c=1} c && /^int main/ {exit} c {print}' \
    "$seed" > "$tmp/post.c"
cat >> "$tmp/post.c" <<'HARNESS'
/* lore's harness: writes NAME.pcm (int16 little endian samples) and NAME.bits (the packed
   stream, ceil(bits/8) bytes, bits past packed_size zeroed) and one manifest line per vector. */
static FILE *manifest;
static void emit(const char *name, Sint16 *b, int n)
{
	char path[256];
	Uint32 packed_size;
	Uint8 *data = bitpack(b, n, &packed_size);
	Sint16 *back = bitunpack(data, packed_size, n);
	if (back == NULL || memcmp(back, b, sizeof(Sint16) * n) != 0) { printf("%s: round trip failed\n", name); exit(1); }
	Uint32 bytes = (packed_size + 7) / 8;
	if (packed_size & 7) data[bytes - 1] &= (Uint8)((1u << (packed_size & 7)) - 1);
	snprintf(path, sizeof path, "%s.pcm", name);
	FILE *f = fopen(path, "wb");
	for (int i = 0; i < n; ++i) { fputc(b[i] & 0xff, f); fputc((b[i] >> 8) & 0xff, f); }
	fclose(f);
	snprintf(path, sizeof path, "%s.bits", name);
	f = fopen(path, "wb"); fwrite(data, 1, bytes, f); fclose(f);
	fprintf(manifest, "%s %d %u\n", name, n, packed_size);
	free(data); free(back);
}
static Uint32 lcg = 12345;
static int next(void) { lcg = lcg * 1103515245u + 12345u; return (int)(lcg >> 16); }
int main(void)
{
	static Sint16 b[100000];
	manifest = fopen("golden.txt", "w");
	getdata(b, 100000, 0); emit("sine", b, 100000);
	getdata(b, 4096, 1); emit("rand", b, 4096);
	b[0] = 1234; emit("single", b, 1);
	b[0] = -32768; b[1] = 32767; emit("pair", b, 2);
	for (int i = 0; i < 1000; ++i) b[i] = 0; emit("silence", b, 1000);
	for (int i = 0; i < 1000; ++i) b[i] = (i & 1) ? 32767 : -32768; emit("alternating", b, 1000);
	for (int i = 0; i < 3000; ++i) b[i] = (Sint16)((next() & 63) - 32); emit("quiet", b, 3000);
	for (int i = 0; i < 3000; ++i) b[i] = (Sint16)(next() * 2); emit("loud", b, 3000);
	for (int i = 0; i < 5000; ++i) b[i] = (Sint16)(((next() & 255) - 128) * 256); emit("eightbit", b, 5000);
	for (int i = 0; i < 8000; ++i) { int v = (int)(sin(i * 0.01) * 30000 + sin(i * 0.37) * 9000); b[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v; } emit("saturated", b, 8000);
	fclose(manifest);
	return 0;
}
HARNESS
gcc -std=gnu99 -O2 -w -o "$tmp/post" "$tmp/post.c" -lm
cd "$here" && "$tmp/post"
cat "$here/golden.txt"
