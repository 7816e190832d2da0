# Sourced by the other scripts: the toolchains' usual homes on PATH (a fresh shell may lack them).
for dir in /usr/local/go/bin "$HOME/go/bin" "$HOME/.cargo/bin"; do
  case ":$PATH:" in *":$dir:"*) ;; *) [ -d "$dir" ] && PATH="$PATH:$dir" ;; esac
done
export PATH
