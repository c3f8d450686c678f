#pragma once
// OpenSSL's libcrypto (Debian libssl-dev): SHA-256 through the EVP digest API and the
// constant-time comparison CRYPTO_memcmp.
#include <openssl/evp.h>
#include <openssl/crypto.h>
