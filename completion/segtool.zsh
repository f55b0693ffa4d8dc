# zsh completion for segtool. Load it from ~/.zshrc with:
#   source /path/to/completion/segtool.zsh
# It loads segtool.bash from the same directory, which enables compinit and bashcompinit
# under zsh. Generated; do not edit.
source "${${(%):-%x}:A:h}/segtool.bash"
