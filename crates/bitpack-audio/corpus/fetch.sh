#!/bin/sh
# Fetches the small real-audio corpus used by the bench and the guide's tables: WAV files shipped
# in Debian 12 packages (speech: alsa-utils, sound-icons; game sounds: lbreakout2-data, ltris,
# four of them 8-bit), plus Debian's flac 1.4.2 binary for the comparison, and a second corpus of
# real 8-bit tracker samples: the instruments of tecnoballz-data's ProTracker modules, extracted
# by `benches/src/bin/bitpack_mod_samples.rs` into wav8/. Nothing is committed: the files land in
# target/bitpack-corpus/ (wav/, wav8/ and flac/bin).
#
# Usage (from the workspace root): sh crates/bitpack-audio/corpus/fetch.sh
set -eu
workspace=$(pwd)
dest=${1:-target/bitpack-corpus}
mkdir -p "$dest/deb" "$dest/wav" "$dest/root"
dest=$(cd "$dest" && pwd)
cd "$dest/deb"
apt-get download alsa-utils sound-icons lbreakout2-data ltris flac libflac12 libogg0 tecnoballz-data
cd ..
for d in deb/*.deb; do dpkg -x "$d" root; done
find root -iname '*.wav' -not -path '*/tecnoballz/*' -exec cp {} wav/ \;
cd "$workspace"
cargo run --quiet --release -p lore-benches --bin bitpack_mod_samples -- "$dest/wav8" \
    "$dest"/root/usr/share/games/tecnoballz/musics/*.mod
cd "$dest"
mkdir -p flac
cp root/usr/bin/flac flac/bin
cp -a root/usr/lib/x86_64-linux-gnu/libFLAC.so* root/usr/lib/x86_64-linux-gnu/libogg.so* flac/
echo "$(ls wav | wc -l) WAV files in $dest/wav, $(ls wav8 | wc -l) in $dest/wav8; flac: LD_LIBRARY_PATH=$dest/flac $dest/flac/bin"
