#ifndef LEDGERLY_CZEROMQ_SHIM_H
#define LEDGERLY_CZEROMQ_SHIM_H
#include <zmq.h>
#include <sys/eventfd.h>
#endif
