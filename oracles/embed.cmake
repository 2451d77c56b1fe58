# Embeds a text file as a C byte array (NUL-terminated):
#   cmake -DIN=<file> -DOUT=<header> -DNAME=<identifier> -P embed.cmake
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," arr "${hex}")
string(REGEX REPLACE "((0x..,){24})" "\\1\n" arr "${arr}")
file(WRITE ${OUT} "/* generated from ${IN} by oracles/embed.cmake: do not edit */\n"
                  "static const unsigned char ${NAME}[] = {\n${arr}0x00};\n")
