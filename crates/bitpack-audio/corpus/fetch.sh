#!/bin/sh
# Fetches the small real-audio corpus used by the bench and the guide's tables: WAV files shipped
# in Debian 12 packages (speech: alsa-utils, sound-icons; game sounds: lbreakout2-data, ltris,
# four of them 8-bit), plus Debian's flac 1.4.2 binary for the comparison. Nothing is committed:
# the files land in target/bitpack-corpus/ (wav/ and flac/bin).
#
# Usage (from the workspace root): sh crates/bitpack-audio/corpus/fetch.sh
set -eu
dest=${1:-target/bitpack-corpus}
mkdir -p "$dest/deb" "$dest/wav" "$dest/root"
cd "$dest/deb"
apt-get download alsa-utils sound-icons lbreakout2-data ltris flac libflac12 libogg0
cd ..
for d in deb/*.deb; do dpkg -x "$d" root; done
find root -iname '*.wav' -exec cp {} wav/ \;
mkdir -p flac
cp root/usr/bin/flac flac/bin
cp -a root/usr/lib/x86_64-linux-gnu/libFLAC.so* root/usr/lib/x86_64-linux-gnu/libogg.so* flac/
echo "$(ls wav | wc -l) WAV files in $dest/wav; flac: LD_LIBRARY_PATH=$dest/flac $dest/flac/bin"
