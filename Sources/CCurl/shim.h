#pragma once
#include <curl/curl.h>
// curl_easy_setopt / curl_easy_getinfo are variadic: typed wrappers for Swift.
// None of these take ownership of what they are given beyond what libcurl documents for
// the option (strings are copied by libcurl since 7.17; pointers must outlive the transfer).
static inline CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_ptr(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_str(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
/// Sets CURLOPT_WRITEFUNCTION (the callback receives the body in chunks).
static inline CURLcode ccurl_setopt_write_function(CURL *h, curl_write_callback f) {
    return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f);
}
/// Sets CURLOPT_HEADERFUNCTION (one call per response header line).
static inline CURLcode ccurl_setopt_header_function(CURL *h, curl_write_callback f) {
    return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f);
}
static inline CURLcode ccurl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_getinfo_double(CURL *h, CURLINFO i, double *v) { return curl_easy_getinfo(h, i, v); }
