/**
 * What every API method returns: a promise of the parsed body that can also
 * give the whole answer with `.withResponse()` (status, headers, request id).
 *
 *     const asset = await client.assets.put(id, body);
 *     const { data, status } = await client.assets.put(id, body).withResponse();
 *     // status 201: created, 200: replaced
 */
export class APIPromise {
  /** @param {Promise<{data: any, status: number, headers: Headers, requestId: string | null}>} response */
  constructor(response) {
    this._response = response;
  }

  /** The body together with the status, headers and request id of the answer. */
  withResponse() {
    return this._response;
  }

  then(onFulfilled, onRejected) {
    return this._response.then((r) => r.data).then(onFulfilled, onRejected);
  }

  catch(onRejected) {
    return this.then(undefined, onRejected);
  }

  finally(onFinally) {
    return this.then().finally(onFinally);
  }

  get [Symbol.toStringTag]() {
    return 'APIPromise';
  }
}
