# Gate-level equivalence of an RTL module against its version at an earlier git revision (sourced by
# scripts/simt_csa_equiv.sh and scripts/simt_speed_equiv.sh). Both versions are elaborated by Yosys, mapped to
# single-bit gates (techmap) and merged (opt -full) in one miter; SAT then proves the miter's assertion. When the
# two versions build the same gates, opt_merge collapses the miter to a constant ("Number of cells: 1").
# The caller sets ROOT (repository), REV (the old revision), T (a temporary directory) and rc=0.

# equiv_fetch MODULE FILE [CURRENT]: the old (REV) FILE and the current one (CURRENT, default FILE), MODULE
# renamed MODULE_old / MODULE_new
equiv_fetch() {
  git -C "$ROOT" show "$REV:$2" | sed "s/module $1\b/module $1_old/" > "$T/$1_old.v"
  sed "s/module $1\b/module $1_new/" "$ROOT/${3:-$2}" > "$T/$1_new.v"
}

# equiv_prove TOOL LABEL MODULE PORTS INSTANCE: gold/gate wrappers with port list PORTS around MODULE_old /
# MODULE_new instantiated as "MODULE_x INSTANCE"; prints the verdict, sets rc=1 when not proven
equiv_prove() {
  local tool=$1 label=$2 mod=$3 ports=$4 inst=$5 log cells
  log="$T/yosys-${label//[^A-Za-z0-9]/_}.log"
  printf 'module gold(%s);\n  %s_old %s\nendmodule\nmodule gate(%s);\n  %s_new %s\nendmodule\n' \
    "$ports" "$mod" "$inst" "$ports" "$mod" "$inst" > "$T/wrap.v"
  (cd "$T" && yosys -p "read_verilog ${mod}_old.v ${mod}_new.v wrap.v; hierarchy -check; proc; flatten; opt_clean; techmap; opt -full;
      miter -equiv -flatten -make_assert gold gate miter; hierarchy -top miter; opt -full; stat;
      sat -verify -prove-asserts miter" > "$log" 2>&1) || true
  cells=$(grep -E "Number of cells" "$log" | tail -1 | awk '{print $4}')
  if grep -q "SUCCESS" "$log"; then
    echo "$tool: $label: equivalent to $REV (miter cells after merging: $cells$([ "$cells" = 1 ] && echo ', identical gates'))"
  else
    echo "$tool: $label: NOT proven equivalent to $REV"; tail -20 "$log"; rc=1
  fi
}
