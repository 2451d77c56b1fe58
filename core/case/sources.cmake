# The case model's files, the one list: SCN_CASE_MODEL_NAMES are the model
# without the decoder (text form out and in, builders, the va_list call),
# which every executor compiles with a foreign libc (core/targets/musl,
# core/targets/matrix/matrix_target.cmake, runner/scnfuzz/anylibc.py reads
# this list), so they need nothing but case.h, case_text.h and the libc;
# SCN_CASE_DECODER_NAMES the fuzzer-byte decoder (case_decode.h).
set(SCN_CASE_MODEL_NAMES case_format.c case_parse_quoted.c case_parse_number.c case_parse.c
    case_build.c case_call.c case_round.c)
set(SCN_CASE_MODEL_HEADERS case.h case_text.h scn_base.h scn_writer.h)
set(SCN_CASE_DECODER_NAMES case_decode.c case_decode_spec.c case_decode_values.c case_decode_kptr.c)
