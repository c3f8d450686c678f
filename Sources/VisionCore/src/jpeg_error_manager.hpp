// libjpeg's error handling without its printing: libjpeg's standard manager writes to
// stderr and exits on errors, and a library must do neither. Errors longjmp back to the
// caller's setjmp with the message kept; warnings about damaged data are remembered.
#pragma once
#include <csetjmp>
#include <cstdio>
#include <jpeglib.h>
#include <jerror.h>

namespace vc {

struct JPEGErrorManager {
    jpeg_error_mgr pub;  // first: libjpeg sees a jpeg_error_mgr*
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    bool corrupt;

    // Makes this the error manager of `cinfo` (a compress or decompress struct, before its
    // jpeg_create_*). The caller then calls setjmp(jump).
    template <class Info>
    void install(Info &cinfo) {
        cinfo.err = jpeg_std_error(&pub);
        pub.error_exit = on_error;
        pub.emit_message = on_message;
        pub.output_message = [](j_common_ptr) {};
    }

private:
    [[noreturn]] static void on_error(j_common_ptr cinfo) {
        auto *err = reinterpret_cast<JPEGErrorManager *>(cinfo->err);
        (*cinfo->err->format_message)(cinfo, err->message);
        std::longjmp(err->jump, 1);
    }

    // Warnings (level -1) are damaged data that libjpeg would smooth over: remember the
    // first. Extraneous bytes before a marker are padding some encoders leave: harmless.
    static void on_message(j_common_ptr cinfo, int level) {
        auto *err = reinterpret_cast<JPEGErrorManager *>(cinfo->err);
        if (level >= 0 || err->corrupt) return;
        if (cinfo->err->msg_code == JWRN_EXTRANEOUS_DATA) return;
        (*cinfo->err->format_message)(cinfo, err->message);
        err->corrupt = true;
    }
};

}  // namespace vc
